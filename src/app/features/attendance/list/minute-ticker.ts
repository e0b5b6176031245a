// One shared 60 s clock for every reply-window countdown on the screen (spec 2 §2.3, §9): a single timer,
// started by the first countdown shown and stopped with the last.
import { useSyncExternalStore } from 'react';

export const TICK_MS = 60_000;

let now = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/** The time of the last tick (ms): re-renders its reader once a minute. */
export const useMinuteTick = () => useSyncExternalStore(subscribe, () => now);
