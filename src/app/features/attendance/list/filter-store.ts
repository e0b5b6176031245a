// The list's filter, kept per user in localStorage: a reload, or a notification opening the screen, finds
// the list as it was left. A stored filter that no longer reads as one falls back to the default.
import type { ConversationFilter } from './list-view';

const keyOf = (userId: string) => `atendimento-filtro:${userId}`;

const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

export function loadFilter(userId: string, fallback: ConversationFilter): ConversationFilter {
  try {
    const raw = JSON.parse(
      localStorage.getItem(keyOf(userId)) ?? 'null',
    ) as Partial<ConversationFilter> | null;
    if (!raw || typeof raw !== 'object') return fallback;
    const types = strings(raw.types) ? raw.types.filter((t) => t === 'chatbot' || t === 'human') : null;
    return {
      situation: raw.situation === 'waiting_response' ? 'waiting_response' : 'all',
      types: types ?? fallback.types,
      departments: strings(raw.departments) ? raw.departments : fallback.departments,
      tags: strings(raw.tags) ? raw.tags : [],
      chips: strings(raw.chips) ? raw.chips : [],
      text: typeof raw.text === 'string' ? raw.text.slice(0, 100) : '',
      // 'Minhas' is this user's own conversations: another id is not kept.
      assigned_user: raw.assigned_user === userId ? userId : null,
    };
  } catch {
    return fallback;
  }
}

export function saveFilter(userId: string, filter: ConversationFilter) {
  try {
    localStorage.setItem(keyOf(userId), JSON.stringify(filter));
  } catch {
    // Private mode or a full storage: the filter lasts for this visit only.
  }
}
