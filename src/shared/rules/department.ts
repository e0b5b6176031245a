import { messages } from '../messages';
import { type FieldError, fieldError } from './field-error';

export interface DepartmentInput {
  name: string;
  description?: string | null;
  distribute?: boolean;
}

/** Department rules (spec 1 §5): the name is required. */
export function prepareDepartment(
  input: DepartmentInput,
):
  | { ok: true; department: { name: string; description: string | null; distribute: boolean } }
  | { ok: false; error: FieldError<'name'> } {
  const name = input.name.trim();
  if (!name) return { ok: false, error: fieldError('name', messages.nameRequired) };
  return {
    ok: true,
    department: {
      name,
      description: input.description?.trim() || null,
      distribute: input.distribute === true,
    },
  };
}
