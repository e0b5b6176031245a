// Back on a phone closes what is on top, and only that. The full-screen conversation pane and every dialog
// opened over a screen (the media library over a conversation, a drawer's dialog…) each have a history entry
// of their own: the back button or gesture leaves the top entry, and the layer that owned it closes. A layer
// closed by its own button leaves its entry too; layers that close together (a dialog and the pane under it)
// leave their entries in one step. Escape, on every screen size, closes the top layer only (Mantine's own
// modals each close on Escape, so a drawer over the phone's conversation took the conversation with it).
import type { RouterHistory } from '@tanstack/react-router';
import { useRouter } from '@tanstack/react-router';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
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

/** The open layers, bottom to top. */
let layers: readonly symbol[] = [];
const layerWatchers = new Set<() => void>();
const watchLayers = (watcher: () => void) => {
  layerWatchers.add(watcher);
  return () => layerWatchers.delete(watcher);
};
const setLayers = (next: readonly symbol[]) => {
  layers = next;
  for (const watcher of layerWatchers) watcher();
};

/**
 * An overlay's place among the open layers: answers whether it is the top one, the only one Escape closes
 * (pass it as the overlay's `closeOnEscape`).
 */
export function useLayer(opened: boolean): boolean {
  const [id] = useState(() => Symbol('layer'));
  useEffect(() => {
    if (!opened) return;
    setLayers([...layers, id]);
    return () => setLayers(layers.filter((l) => l !== id));
  }, [opened, id]);
  return useSyncExternalStore(watchLayers, () => !layers.includes(id) || layers[layers.length - 1] === id);
}

/**
 * A dialog's place in the history while it is open on a phone: back closes it (and nothing under it), and
 * closing it otherwise takes its entry away. Desktop dialogs are not in the history. Answers whether it is the
 * top layer (its `closeOnEscape`, see useLayer).
 */
export function useBackClose(opened: boolean, onClose: () => void): boolean {
  const top = useLayer(opened);
  const mobile = useIsMobile();
  // Outside a router (a widget rendered on its own, as the unit tests do) there is no history to step in.
  const history = useRouter({ warn: false })?.history;
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    if (!opened || !mobile || !history) return;
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
  return top;
}
