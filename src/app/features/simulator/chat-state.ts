// The simulated phone's conversation: the server's history merged with what the page sent (pending or
// failed) and what the socket brought since. Pure, so the hook stays a thin layer of effects.
import type { SimulatorMessage } from '@/shared/contract/chips';

export type SendType = 'text' | 'image' | 'audio' | 'video' | 'document' | 'location';

/** What the customer asked to send, kept so a retry sends the same message under the same id. */
export interface Draft {
  id: string;
  type: SendType;
  text: string;
  /** A file still to upload; dropped once uploaded (media_url then says where it is). */
  file?: File;
  media_url?: string;
  file_name?: string;
  location?: { latitude: number; longitude: number; name?: string };
  /** A tap on a menu's option (text is its title). */
  choice?: { id: string; title: string };
}

export interface Bubble {
  message: SimulatorMessage;
  deleted: boolean;
  /** The customer's own message on its way: sending, or failed with the error to show. */
  outgoing?: { draft: Draft; error: string | null };
}

export type ChatAction =
  | { type: 'reset' }
  | { type: 'history'; messages: SimulatorMessage[] }
  | { type: 'sending'; draft: Draft; message: SimulatorMessage }
  | { type: 'retrying'; id: string }
  | { type: 'uploaded'; id: string; media_url: string; file_name: string }
  | { type: 'sent'; id: string; message: SimulatorMessage }
  | { type: 'failed'; id: string; error: string }
  | { type: 'received'; message: SimulatorMessage }
  | { type: 'status'; ids: string[]; status: number }
  | { type: 'deleted'; id: string };

const time = (m: SimulatorMessage) => Date.parse(m.created) || 0;

export function chatReducer(state: Bubble[], action: ChatAction): Bubble[] {
  switch (action.type) {
    case 'reset':
      return [];
    case 'history': {
      const known = new Map(state.map((b) => [b.message.id, b]));
      const fromServer = new Set(action.messages.map((m) => m.id));
      const merged: Bubble[] = action.messages.map((m) => {
        const local = known.get(m.id);
        return {
          // A history read before a socket update must not undo it.
          message: { ...m, status: Math.max(m.status, local?.message.status ?? 0) },
          deleted: m.deleted || Boolean(local?.deleted),
        };
      });
      // What the server does not have yet (sending, failed, a reply newer than the read) stays.
      for (const b of state) if (!fromServer.has(b.message.id)) merged.push(b);
      return merged.sort((a, b) => time(a.message) - time(b.message));
    }
    case 'sending':
      return [
        ...state,
        {
          message: action.message,
          deleted: false,
          outgoing: { draft: action.draft, error: null },
        },
      ];
    case 'retrying':
      return state.map((b) =>
        b.message.id === action.id && b.outgoing ? { ...b, outgoing: { ...b.outgoing, error: null } } : b,
      );
    case 'uploaded':
      return state.map((b) =>
        b.message.id === action.id && b.outgoing
          ? {
              ...b,
              outgoing: {
                ...b.outgoing,
                draft: {
                  ...b.outgoing.draft,
                  file: undefined,
                  media_url: action.media_url,
                  file_name: action.file_name,
                },
              },
            }
          : b,
      );
    case 'sent':
      return state.map((b) =>
        b.message.id === action.id
          ? {
              message: { ...action.message, media_url: action.message.media_url ?? b.message.media_url },
              deleted: false,
            }
          : b,
      );
    case 'failed':
      return state.map((b) =>
        b.message.id === action.id && b.outgoing
          ? { ...b, outgoing: { ...b.outgoing, error: action.error } }
          : b,
      );
    case 'received': {
      const i = state.findIndex((b) => b.message.id === action.message.id);
      if (i >= 0) return state;
      return [...state, { message: action.message, deleted: action.message.deleted }];
    }
    case 'status': {
      const ids = new Set(action.ids);
      return state.map((b) =>
        ids.has(b.message.id) && b.message.status < action.status
          ? { ...b, message: { ...b.message, status: action.status } }
          : b,
      );
    }
    case 'deleted':
      return state.map((b) => (b.message.id === action.id ? { ...b, deleted: true } : b));
  }
}

/** The business's messages the customer has not read yet. */
export const unreadIds = (bubbles: Bubble[]) =>
  bubbles.filter((b) => b.message.from_me && !b.deleted && b.message.status < 4).map((b) => b.message.id);
