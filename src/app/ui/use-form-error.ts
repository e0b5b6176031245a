import { type RefObject, useEffect, useRef, useState } from 'react';
import { ApiError, errorMessage } from '@/app/lib/api';
import type { FieldError } from '@/shared/rules/field-error';

type Shown<Field extends string> = { field: Field | 'form'; message: string };

/**
 * A dialog form's messages: each shown on the field it belongs to (a shared rule's or the server's
 * { field, message }), or under the form ('form') for a field the form does not have and for anything else.
 * `show` shows one, `showAll` every problem a rule found at once (so a submit names all the missing fields).
 * A field's message goes away as soon as the field is changed, and the first field in error is brought into
 * view and focused. `fields`: the form's fields that show a message.
 */
export function useFormError<Field extends string>(fields: readonly Field[]) {
  const [errors, setErrors] = useState<Shown<Field>[]>([]);
  const formRef = useRef<HTMLFormElement>(null);
  useRevealError(formRef, errors);
  const shown = ({ field, message }: FieldError): Shown<Field> => ({
    field: (fields as readonly string[]).includes(field) ? (field as Field) : 'form',
    message,
  });
  const show = (error: FieldError) => setErrors([shown(error)]);
  return {
    /** For the form's `ref`: where the message is looked for. */
    formRef,
    /** The message of `field`, or null. */
    errorOf: (field: Field | 'form') => errors.find((e) => e.field === field)?.message ?? null,
    show,
    /** Every problem at once (the first of each field). */
    showAll: (problems: readonly FieldError[]) => setErrors(problems.map(shown)),
    /** Takes away the message of `field`, if one is shown. */
    clear: (field: Field | 'form') =>
      setErrors((list) =>
        list.some((e) => e.field === field) ? list.filter((e) => e.field !== field) : list,
      ),
    reset: () => setErrors([]),
    /** A save's outcome (mutate's options): done, or the server's message shown. */
    afterSave: (onDone: () => void) => ({
      onSuccess: onDone,
      onError: (err: unknown) =>
        show({ field: (err instanceof ApiError && err.field) || 'form', message: errorMessage(err) }),
    }),
  };
}

/**
 * Brings the first field in error into view and focuses it (on a phone the field that failed may be far above
 * the Salvar button that was pressed); a message of the form's own (role=alert) when no field is in error. A
 * field goes before any alert: a warning shown at the top of a form is not what failed.
 */
export function revealFirstError(form: HTMLElement | null) {
  const field = form?.querySelector<HTMLElement>('[aria-invalid="true"]');
  const target = field ?? form?.querySelector<HTMLElement>('[role="alert"]');
  target?.scrollIntoView({ block: 'center' });
  field?.focus({ preventScroll: true });
}

function useRevealError(form: RefObject<HTMLFormElement | null>, errors: readonly unknown[]) {
  useEffect(() => {
    if (errors.length) revealFirstError(form.current);
  }, [form, errors]);
}
