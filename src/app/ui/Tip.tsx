// The top bar's and the list's tooltips: Mantine's Tooltip once the floating parts are in (the browser's
// first idle moment after the first paint, or a pointer on a button), the button alone until then.
import type { TooltipProps } from '@mantine/core';
import { deferredPart } from './lazy-dialog';

export const Tip = deferredPart<TooltipProps>(
  () => import('./overlay-parts').then((m) => m.Tooltip),
  ({ children }) => children,
);
