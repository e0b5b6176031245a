import { messages } from '../messages';

export interface DepartmentInput {
  name: string;
  description?: string | null;
}

/** Department rules (spec 1 §5): the name is required. */
export function prepareDepartment(
  input: DepartmentInput,
): { ok: true; department: { name: string; description: string | null } } | { ok: false; error: string } {
  const name = input.name.trim();
  if (!name) return { ok: false, error: messages.departmentNameRequired };
  return { ok: true, department: { name, description: input.description?.trim() || null } };
}
