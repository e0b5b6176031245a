// The simulated phone's conversation with the chip: history, the page's socket (the business's replies,
// deletions, the chip going on- and offline), sending with retries under the same id, and the
// delivered/read marks the business sees as ticks.
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { io, type Socket } from 'socket.io-client';
import { api, errorMessage, upload } from '@/app/lib/api';
import type { SimulatorMessage } from '@/shared/contract/chips';
import type { ClientToServerEvents, ServerToClientEvents } from '@/shared/contract/events';
import { newId } from '@/shared/ids';
import { messages } from '@/shared/messages';
import { chatReducer, type Draft, unreadIds } from './chat-state';
import type { CustomerIdentity } from './identity';

type SimulatorSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

interface Options {
  token: string;
  identity: CustomerIdentity;
  autoRead: boolean;
  /** The chip went on- or offline (socket), or the socket came back (null: ask the server again). */
  onChip(connected: boolean | null): void;
}

/** A new message as the customer composes it; the id is named here, before the first try. */
export type Compose =
  | { type: 'text'; text: string; choice?: { id: string; title: string } }
  | { type: 'image' | 'audio' | 'video' | 'document'; file: File }
  | { type: 'location'; location: { latitude: number; longitude: number; name?: string } };

const pageIsSeen = () => document.visibilityState === 'visible' && document.hasFocus();

export function useSimulatorChat({ token, identity, autoRead, onChip }: Options) {
  const [bubbles, dispatch] = useReducer(chatReducer, []);
  const [loading, setLoading] = useState(true);
  const [loadError, setLoadError] = useState<string | null>(null);
  // 'digitando…' in the header: shown for the seconds the business said, or until its message arrives.
  const [typing, setTyping] = useState(false);
  const typingTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const current = useRef(bubbles);
  current.current = bubbles;
  const onChipRef = useRef(onChip);
  onChipRef.current = onChip;
  /** Marks on their way, by message id: the status asked for, so a timer does not ask twice. */
  const marking = useRef(new Map<string, number>());
  const phone = `+${identity.phone}`;

  const mark = useCallback(
    async (ids: string[], status: 3 | 4) => {
      const todo = ids.filter((id) => (marking.current.get(id) ?? 0) < status);
      if (!todo.length) return;
      for (const id of todo) marking.current.set(id, status);
      try {
        for (let i = 0; i < todo.length; i += 500) {
          const batch = todo.slice(i, i + 500);
          await api('simulator-mark', { token, phone, ids: batch, status });
          dispatch({ type: 'status', ids: batch, status });
        }
      } finally {
        for (const id of todo) if (marking.current.get(id) === status) marking.current.delete(id);
      }
    },
    [token, phone],
  );

  const loadHistory = useCallback(async () => {
    try {
      const history = await api('simulator-get-messages', { token, phone });
      dispatch({ type: 'history', messages: history });
      setLoadError(null);
      // What reached the phone while it was closed is delivered now.
      const undelivered = history.filter((m) => m.from_me && m.status < 3).map((m) => m.id);
      void mark(undelivered, 3).catch(() => undefined);
    } catch (err) {
      setLoadError(errorMessage(err));
    } finally {
      setLoading(false);
    }
  }, [token, phone, mark]);

  useEffect(() => {
    dispatch({ type: 'reset' });
    setLoading(true);
    marking.current.clear();
    void loadHistory();
    const socket: SimulatorSocket = io({
      path: '/sock/',
      transports: ['websocket'],
      auth: { simulator: token, phone },
    });
    socket.on('connect', () => {
      // Whatever came before the room was joined (or during a drop) is read from the server, the chip's
      // state too: a manager may have disconnected it between the page's load and this join.
      void loadHistory();
      onChipRef.current(null);
    });
    // The server asks its sockets to connect again after it lost events for them (its database restarting):
    // socket.io leaves that reconnect to the page.
    socket.on('disconnect', (reason) => {
      if (reason === 'io server disconnect') socket.connect();
    });
    // A handshake refused for a reason other than a wrong link (the database down for a moment) is not tried
    // again by socket.io either: the page tries every few seconds, as the app does.
    let retry: ReturnType<typeof setTimeout> | undefined;
    socket.on('connect_error', (err) => {
      if (socket.active || err.message === messages.unauthorized) return;
      clearTimeout(retry);
      retry = setTimeout(() => socket.connect(), 2000);
    });
    socket.on('simulator', (event) => {
      switch (event.type) {
        case 'message':
          if (event.message.from_me) {
            clearTimeout(typingTimer.current);
            setTyping(false);
          }
          dispatch({ type: 'received', message: event.message });
          if (event.message.from_me && event.message.status < 3)
            void mark([event.message.id], 3).catch(() => undefined);
          break;
        case 'deleted':
          dispatch({ type: 'deleted', id: event.message.id });
          break;
        case 'chip':
          onChipRef.current(event.message.connected);
          break;
        case 'typing':
          clearTimeout(typingTimer.current);
          setTyping(true);
          // Like WhatsApp, it never lasts more than 25 s without a message.
          typingTimer.current = setTimeout(
            () => setTyping(false),
            Math.min(event.message.seconds, 25) * 1000,
          );
          break;
      }
    });
    return () => {
      clearTimeout(typingTimer.current);
      clearTimeout(retry);
      setTyping(false);
      socket.removeAllListeners();
      socket.disconnect();
    };
  }, [token, phone, loadHistory, mark]);

  const attempt = useCallback(
    async (bubbleId: string, draft: Draft) => {
      try {
        let ready = draft;
        if (ready.file) {
          const stored = await upload('simulator-upload', ready.file, ready.file.name, { token });
          ready = { ...ready, file: undefined, media_url: stored.url, file_name: stored.file_name };
          dispatch({ type: 'uploaded', id: bubbleId, media_url: stored.url, file_name: stored.file_name });
        }
        const answer = await api('simulator-send', {
          token,
          phone,
          name: identity.name,
          id: ready.id,
          type: ready.type,
          text: ready.text,
          ...(ready.media_url && { media_url: ready.media_url }),
          ...(ready.file_name && { file_name: ready.file_name }),
          ...(ready.location && { location: ready.location }),
          ...(ready.choice && { choice: ready.choice }),
        });
        dispatch({ type: 'sent', id: bubbleId, message: answer });
      } catch (err) {
        dispatch({ type: 'failed', id: bubbleId, error: errorMessage(err) });
      }
    },
    [token, phone, identity.name],
  );

  const send = useCallback(
    (compose: Compose) => {
      const draft: Draft =
        compose.type === 'text'
          ? {
              id: newId(),
              type: 'text',
              text: compose.text,
              ...(compose.choice && { choice: compose.choice }),
            }
          : compose.type === 'location'
            ? { id: newId(), type: 'location', text: '', location: compose.location }
            : { id: newId(), type: compose.type, text: '', file: compose.file, file_name: compose.file.name };
      // The id the server gives the message, so the history and the answer find this bubble.
      const bubbleId = `SIMC${identity.phone}${draft.id}`;
      const previewUrl =
        compose.type === 'image' || compose.type === 'audio' || compose.type === 'video'
          ? URL.createObjectURL(compose.file)
          : undefined;
      const message: SimulatorMessage = {
        id: bubbleId,
        from_me: false,
        deleted: false,
        type: draft.type,
        text: draft.text,
        media_url: previewUrl ?? null,
        file_name: draft.file_name ?? null,
        ptt: false,
        location: draft.location ?? null,
        status: 0,
        created: new Date().toISOString(),
      };
      dispatch({ type: 'sending', draft, message });
      void attempt(bubbleId, draft);
    },
    [identity.phone, attempt],
  );

  const retry = useCallback(
    (bubbleId: string) => {
      const bubble = current.current.find((b) => b.message.id === bubbleId);
      if (!bubble?.outgoing) return;
      dispatch({ type: 'retrying', id: bubbleId });
      void attempt(bubbleId, bubble.outgoing.draft);
    },
    [attempt],
  );

  const unread = useMemo(() => unreadIds(bubbles), [bubbles]);
  const unreadKey = unread.join(',');

  // Read receipts as a phone gives them: the chat is on screen and the window has the focus, for ~1 s.
  useEffect(() => {
    if (!autoRead || !unreadKey) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      clearTimeout(timer);
      if (!pageIsSeen()) return;
      timer = setTimeout(() => {
        if (pageIsSeen()) void mark(unreadIds(current.current), 4).catch(() => undefined);
      }, 1000);
    };
    const stop = () => clearTimeout(timer);
    check();
    window.addEventListener('focus', check);
    window.addEventListener('blur', stop);
    document.addEventListener('visibilitychange', check);
    return () => {
      stop();
      window.removeEventListener('focus', check);
      window.removeEventListener('blur', stop);
      document.removeEventListener('visibilitychange', check);
    };
  }, [autoRead, unreadKey, mark]);

  const markRead = useCallback(() => mark(unreadIds(current.current), 4), [mark]);

  return {
    bubbles,
    loading,
    loadError,
    send,
    retry,
    unreadCount: unread.length,
    typing,
    markRead,
    reload: loadHistory,
  };
}
