import { messages } from '../messages';
import { type FieldError, fieldError } from './field-error';

export type TransferType = 'department' | 'chatbot' | 'flow';

export type TransferField = 'type' | 'department' | 'chatbot' | 'flow';

export interface TransferInput {
  type: TransferType | '';
  department?: string | null;
  chatbot?: string | null;
  flow?: string | null;
}

/** Transfer rules (spec 2 §5): each type needs its target. The dialog disables Transferir without a type. */
export function transferError(input: TransferInput): FieldError<TransferField> | null {
  if (!input.type) return fieldError('type', messages.transferTypeRequired);
  if (input.type === 'department' && !input.department)
    return fieldError('department', messages.transferDepartmentRequired);
  if (input.type === 'flow' && !input.flow) return fieldError('flow', messages.transferFlowRequired);
  if (input.type === 'chatbot' && !input.chatbot)
    return fieldError('chatbot', messages.transferChatbotRequired);
  return null;
}
