import type { ChipRedirect } from '../constants';
import { messages } from '../messages';
import { type FieldError, fieldError } from './field-error';

export interface ChipInput {
  name: string;
  redirect: ChipRedirect | '';
  chatbot?: string | null;
  flow?: string | null;
  department?: string | null;
}

/** The chip dialog's fields a rule (or the server) can point at. */
export type ChipField = 'name' | 'redirect' | 'chatbot' | 'flow' | 'department';

export interface ChipFields {
  name: string;
  redirect: ChipRedirect;
  chatbot: string | null;
  flow: string | null;
  department: string;
}

/** The channel name as stored (spec 3 §5): no accents, only letters, digits and spaces. */
export const cleanChipName = (name: string) =>
  name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9 ]/g, '')
    .replace(/ {2,}/g, ' ')
    .trim();

/** Channel rules (spec 3 §5), in the order the dialog reports them. */
export function prepareChip(
  input: ChipInput,
): { ok: true; chip: ChipFields } | { ok: false; error: FieldError<ChipField> } {
  const fail = (field: ChipField, message: string) => ({
    ok: false as const,
    error: fieldError(field, message),
  });
  const name = cleanChipName(input.name);
  if (!name) return fail('name', messages.chipNameRequired);
  if (!input.redirect) return fail('redirect', messages.chipRedirectRequired);
  if (input.redirect === 'ai_chatbot' && !input.chatbot) return fail('chatbot', messages.chipChatbotRequired);
  if (input.redirect === 'flow_chatbot' && !input.flow) return fail('flow', messages.chipFlowRequired);
  if (!input.department) return fail('department', messages.chipDepartmentRequired);
  return {
    ok: true,
    chip: {
      name,
      redirect: input.redirect,
      // Only the target of the chosen first service is kept.
      chatbot: input.redirect === 'ai_chatbot' ? (input.chatbot ?? null) : null,
      flow: input.redirect === 'flow_chatbot' ? (input.flow ?? null) : null,
      department: input.department,
    },
  };
}
