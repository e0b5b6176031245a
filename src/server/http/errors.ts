// An expected failure answered as the envelope's pt-BR message. Anything else is logged and answered
// with a generic message, never a stack trace.
import type { z } from 'zod';
import { messages } from '../../shared/messages';
import type { FieldError } from '../../shared/rules/field-error';

export class AppError extends Error {
  constructor(
    message: string,
    readonly status = 200,
    readonly logout = false,
    /** The form field the message belongs to (a shared rule's answer), sent in the envelope. */
    readonly field?: string,
  ) {
    super(message);
  }
}

/** A shared rule's refusal ({ field, message }) as the envelope answers it. */
export const fieldFailure = (error: FieldError) => new AppError(error.message, 200, false, error.field);

export const fail = (message: string, status = 200): never => {
  throw new AppError(message, status);
};

export const unauthorized = () => new AppError(messages.unauthorized, 401, true);

const catalogue = new Set<unknown>(Object.values(messages).filter((m) => typeof m === 'string'));

/** One clear pt-BR sentence for the first problem zod found, naming the field. */
export function describeZodError(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return messages.invalidPayload;
  const field = issue.path.map(String).join('.');
  if (issue.message === messages.requiredField && field) return messages.fieldRequired(field);
  // Our own catalogue texts (e.g. 'Por favor, preencha todos os campos.') are shown as they are.
  if (catalogue.has(issue.message)) return issue.message;
  if (!field) return `${messages.invalidPayload} ${issue.message}`;
  // A field that is absent reads the same whatever its schema (a string, or a union such as the API's phone).
  const absent = (issue as { input?: unknown }).input === undefined;
  if (absent && (issue.code === 'invalid_type' || ('input' in issue && issue.code === 'invalid_union'))) {
    return messages.fieldRequired(field);
  }
  return messages.fieldInvalid(field, issue.message);
}
