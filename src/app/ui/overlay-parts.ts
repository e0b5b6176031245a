// Mantine's overlays, loaded on demand: nothing on the first screen imports them statically, so @floating-ui
// (Tooltip) and the modal machinery (Drawer: ModalBase, ScrollArea, FocusTrap) stay out of its chunks.
// Tip (./Tip.tsx) loads them when the browser is idle after the first paint; a lazyDialog on first opening.
export { Drawer, Tooltip } from '@mantine/core';
