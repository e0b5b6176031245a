import { em } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';

/** Below Mantine's `sm` breakpoint (48em): the phone layout (menu in a drawer, full-screen dialogs). */
export const useIsMobile = () => useMediaQuery(`(max-width: ${em(767.98)})`, false) ?? false;
