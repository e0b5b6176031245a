// The app's one source of connectivity: TanStack Query's onlineManager. It listens to the window's 'online' and
// 'offline' events itself (once, while anything subscribes); a page opened offline starts offline. The queries,
// the sync engine, the socket, the offline banner and the top bar's indicator all read it.
import { onlineManager } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';

// React Query assumes 'online' until an event says otherwise.
if (typeof navigator !== 'undefined') onlineManager.setOnline(navigator.onLine);

export const isOnline = () => onlineManager.isOnline();

/** Calls `listener` on each change; answers its removal. */
export const onOnlineChange = (listener: (online: boolean) => void) => onlineManager.subscribe(listener);

const subscribe = (changed: () => void) => onlineManager.subscribe(changed);

/** The connection state, live. */
export const useOnline = () => useSyncExternalStore(subscribe, isOnline);
