import { messages } from '../messages';

export type TransferType = 'department' | 'chatbot' | 'flow';

export interface TransferInput {
  type: TransferType | '';
  department?: string | null;
  chatbot?: string | null;
  flow?: string | null;
}

/** Transfer rules (spec 2 §5): each type needs its target. The dialog disables Transferir without a type. */
export function transferError(input: TransferInput): string | null {
  if (!input.type) return messages.transferTypeRequired;
  if (input.type === 'department' && !input.department) return messages.transferDepartmentRequired;
  if (input.type === 'flow' && !input.flow) return messages.transferFlowRequired;
  if (input.type === 'chatbot' && !input.chatbot) return messages.transferChatbotRequired;
  return null;
}
