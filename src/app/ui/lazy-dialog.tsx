// Dialogs that the first paint does not need, loaded when first opened: the screen's chunk stays small and
// the dialog's code (its form fields, their libraries) arrives on the first click. The service worker
// precaches every built chunk, so a lazy dialog opens offline too. Once opened it stays mounted, as a
// static import did: the close transition plays and the state it keeps between openings survives.
// (Not React.lazy: a lazy component remembers a failed load for good; this one tries again on the next
// opening, e.g. after a new deployment replaced the chunk.)
import { type ComponentType, useEffect, useState, useSyncExternalStore } from 'react';
import { notifyError } from '@/app/lib/notify';

export type LazyDialog<P> = ComponentType<P> & {
  /** Starts loading the dialog's chunk (on hover, focus, a menu opening…) so the click does not wait. */
  preload(): Promise<unknown>;
};

export function lazyDialog<P extends object>(
  load: () => Promise<ComponentType<P>>,
  /** Whether the props ask for the dialog to show; `opened` by default. */
  isOpen: (props: P) => boolean = (props) => Boolean((props as { opened?: boolean }).opened),
): LazyDialog<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const preload = () => {
    loading ??= load().then(
      (component) => {
        loaded = component;
        return component;
      },
      (err: unknown) => {
        loading = undefined;
        throw err;
      },
    );
    return loading;
  };

  function LazyDialogHost(props: P) {
    const open = isOpen(props);
    const [used, setUsed] = useState<ComponentType<P> | undefined>(() => (open ? loaded : undefined));
    // Already loaded (an earlier opening, a preload): shown at once, without waiting for an effect.
    const Component = used ?? (open ? loaded : undefined);
    useEffect(() => {
      if (!open || used) return;
      let live = true;
      preload().then(
        (component) => live && setUsed(() => component),
        (err: unknown) => live && notifyError(err),
      );
      return () => {
        live = false;
      };
    }, [open, used]);
    return Component ? <Component {...props} /> : null;
  }
  return Object.assign(LazyDialogHost, { preload });
}

/** Preloads once the browser is idle after the first paint (a part that is needed soon, not at once). */
export function preloadWhenIdle(part: { preload(): Promise<unknown> }) {
  const run = () => void part.preload().catch(() => undefined);
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(run, { timeout: 3000 });
    return () => cancelIdleCallback(id);
  }
  const timer = setTimeout(run, 1000);
  return () => clearTimeout(timer);
}

/**
 * A part of the first screen that needs a heavy library only once used (a menu, a popover, a tooltip: with
 * @floating-ui about 30 KiB gzipped): its fallback, the same button bare, paints at once; the part loads when
 * the browser is idle after the first paint, or on the first pointer or focus on the fallback. A click that
 * comes first opens it (`defaultOpened`) as soon as it is in.
 */
export function deferredPart<P extends object>(
  load: () => Promise<ComponentType<P>>,
  Fallback: ComponentType<P & { onIntent(): void; onOpen(): void }>,
): ComponentType<P> & { preload(): Promise<unknown> } {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  let idleScheduled = false;
  const listeners = new Set<() => void>();
  const preload = () => {
    loading ??= load().then(
      (component) => {
        loaded = component;
        for (const listener of listeners) listener();
        return component;
      },
      (err: unknown) => {
        loading = undefined;
        throw err;
      },
    );
    return loading;
  };
  const intent = () => void preload().catch(() => undefined);
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };

  function DeferredPart(props: P) {
    const Loaded = useSyncExternalStore(subscribe, () => loaded);
    const [openFirst, setOpenFirst] = useState(false);
    useEffect(() => {
      if (loaded || idleScheduled) return;
      idleScheduled = true;
      preloadWhenIdle({ preload });
    }, []);
    if (Loaded) return <Loaded {...props} {...(openFirst && { defaultOpened: true })} />;
    const open = () => {
      setOpenFirst(true);
      preload().catch(notifyError);
    };
    return <Fallback {...props} onIntent={intent} onOpen={open} />;
  }
  return Object.assign(DeferredPart, { preload });
}
