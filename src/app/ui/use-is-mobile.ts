import { em } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';

/**
 * Below Mantine's `sm` breakpoint (48em): the phone layout (menu in a drawer, full-screen dialogs). Read on
 * the first render (the app renders only in a browser): reading it in an effect would render every screen
 * twice on a phone, first as a desktop.
 */
export const useIsMobile = () =>
  useMediaQuery(`(max-width: ${em(767.98)})`, undefined, { getInitialValueInEffect: false }) ?? false;
