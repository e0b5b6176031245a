// Mantine's floating parts, loaded on demand (see Tip in ./Tip.tsx): nothing on the first screen imports
// them statically, so @floating-ui stays out of its chunks.
export { Tooltip } from '@mantine/core';
