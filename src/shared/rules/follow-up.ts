// Whether an automatic follow-up applies to a conversation: the menu offers 'Desativar follow-up automático'
// only then (spec 2 §2.3: 'only when the conversation has one'). A follow-up is configured per chip (spec 3
// §2.12, §3: enabled, and the types it serves: ai_chatbot, flow_chatbot, human). The server decides with the
// chip's setting and sends the answer as `follow_up_applies`; until follow-ups can be configured (issue 20)
// no chip has a setting, so none applies. The conversation's own auto_follow_up is the switch the user turns
// off (it returns with a new conversation): a follow-up runs when it applies and that switch is on.
import type { Conversation } from '../contract/conversations';

export type FollowUpType = 'ai_chatbot' | 'flow_chatbot' | 'human';

/** A chip's automatic follow-up setting, as far as whom it serves. */
export interface AutoFollowUpSetting {
  enabled: boolean;
  types: readonly FollowUpType[];
}

type Subject = Pick<Conversation, 'finished' | 'is_manual' | 'chatbot_type'>;

/** Who serves the conversation, in the follow-up setting's words; null when nobody does yet. */
export function followUpTypeOf(c: Subject): FollowUpType | null {
  if (c.is_manual) return 'human';
  if (c.chatbot_type === 'chatbot') return 'ai_chatbot';
  if (c.chatbot_type === 'flow_chatbot') return 'flow_chatbot';
  return null;
}

/** The chip's setting (null: none configured) applies to this open conversation. */
export function followUpApplies(c: Subject, setting: AutoFollowUpSetting | null): boolean {
  if (!setting?.enabled || c.finished !== null) return false;
  const type = followUpTypeOf(c);
  return type !== null && setting.types.includes(type);
}
