// Back on a phone closes what is on top, and only that. The full-screen conversation pane and every dialog
// opened over a screen (the media library over a conversation, a drawer's dialog…) each have a history entry
// of their own: the back button or gesture leaves the top entry, and the layer that owned it closes. A layer
// closed by its own button leaves its entry too; layers that close together (a dialog and the pane under it)
// leave their entries in one step.
import type { RouterHistory } from '@tanstack/react-router';
import { useRouter } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { useIsMobile } from './use-is-mobile';

/** The position of the current entry in the session's history (TanStack Router numbers its entries). */
export const entryIndex = (history: RouterHistory): number => history.location.state.__TSR_index ?? 0;

/** Where a step back of ours is going, until the browser has arrived there. */
let landing: number | null = null;
/** The entry to go back to, gathered over the current task. */
let pending: number | null = null;

const isLayerEntry = (history: RouterHistory) =>
  (history.location.state as { backLayer?: boolean }).backLayer === true;

const settledIndex = (history: RouterHistory) => landing ?? entryIndex(history);

/** Leaves the entry at `index` and every one above it: goes back to the entry before it (one step per task). */
export function leaveEntry(history: RouterHistory, index: number) {
  const target = index - 1;
  if (pending !== null) {
    pending = Math.min(pending, target);
    return;
  }
  pending = target;
  queueMicrotask(() => {
    const to = pending;
    pending = null;
    if (to === null) return;
    const delta = to - settledIndex(history);
    if (delta >= 0) return;
    landing = to;
    const stop = history.subscribe(() => {
      landing = null;
      stop();
    });
    history.go(delta);
  });
}

/**
 * Runs `change` once no step back of ours is on its way: a replace made meanwhile would rewrite the entry being
 * left, and the browser would then land on the old one (a pane closed as its dialog closes would come back).
 */
export function afterStepsBack(change: () => void, waited = 0) {
  if ((landing === null && pending === null) || waited > 2000) change();
  else setTimeout(() => afterStepsBack(change, waited + 16), 16);
}

/**
 * A dialog's place in the history while it is open on a phone: back closes it (and nothing under it), and
 * closing it otherwise takes its entry away. Desktop dialogs are not in the history.
 */
export function useBackClose(opened: boolean, onClose: () => void) {
  const mobile = useIsMobile();
  const { history } = useRouter();
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    if (!opened || !mobile) return;
    if (pending !== null && pending === entryIndex(history) - 1 && isLayerEntry(history)) {
      // A layer's entry being left in this very task (a dialog giving way to another, or React's StrictMode
      // closing and reopening it): this one takes it over.
      pending = null;
    } else {
      history.push(history.location.href, { backLayer: true });
    }
    const own = entryIndex(history);
    let left = false;
    const stop = history.subscribe(() => {
      if (left || entryIndex(history) >= own) return;
      // Back (or a layer under this one closing): this entry is gone, so is the dialog.
      left = true;
      close.current();
    });
    return () => {
      stop();
      // Closed by its own button, or taken away with what it was over: its entry goes too, unless something
      // was opened on top of it meanwhile (then the entry stays, and back passes over it).
      if (!left && settledIndex(history) === own) leaveEntry(history, own);
    };
  }, [opened, mobile, history]);
}
