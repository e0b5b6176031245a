// Who served a conversation: the one definition the dashboards count by ('/' Agora, the report, /dash-tecnico),
// in the spec's words (spec 3 §2.1, §3 Dashboard data, §7: chatbot, manual (human); human, ai_chatbot,
// flow_chatbot). The server's SQL (dashboard.repo.ts serviceKindSql) says the same over the same columns.
//
// - human ('atendimento humano', manual): a person of the team served it or was handed it: 'Atender como
//   humano', a transfer to a department, a chatbot's or a flow's handover; or it was opened in human service
//   (the chip's first service, or opened by a send: the public API, a webhook, a campaign, a scheduled
//   message) and stayed there or a user answered in it. One opened in human service and handed to a flow or
//   a chatbot before any user wrote (the API, a webhook, a flow campaign or a scheduled flow starting a flow
//   at once) is the engine's. The database keeps this as conversations.human_at
//   (trigger conversations_human_at, migration 0025).
// - ai_chatbot ('Chatbot IA'): otherwise, served by an AI chatbot (chatbot_type 'chatbot');
// - flow_chatbot ('Chatbot de fluxo'): otherwise, served by a flow.
// chatbot = ai_chatbot + flow_chatbot, and all = chatbot + human on every dashboard.

export type ServiceKind = 'human' | 'ai_chatbot' | 'flow_chatbot';

export interface ServedConversation {
  /** When a person of the team took it (conversations.human_at), or null. */
  human_at: Date | string | null;
  chatbot_type: string | null;
}

export function serviceKind(c: ServedConversation): ServiceKind {
  if (c.human_at) return 'human';
  return c.chatbot_type === 'chatbot' ? 'ai_chatbot' : 'flow_chatbot';
}

/** The dashboards' two-way split: human (manual) or chatbot (AI or flow). */
export const countsAsHuman = (kind: ServiceKind) => kind === 'human';
