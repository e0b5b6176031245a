import { type RefObject, useEffect, useRef, useState } from 'react';
import { ApiError, errorMessage } from '@/app/lib/api';
import type { FieldError } from '@/shared/rules/field-error';

/**
 * A dialog form's message, one at a time: shown on the field it belongs to (a shared rule's or the server's
 * { field, message }), or under the form ('form') for a field the form does not have and for anything else.
 * A field's message goes away as soon as the field is changed, and a message that appears is brought into
 * view. `fields`: the form's fields that show a message.
 */
export function useFormError<Field extends string>(fields: readonly Field[]) {
  const [error, setError] = useState<{ field: Field | 'form'; message: string } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  useRevealError(formRef, error);
  const show = ({ field, message }: FieldError) =>
    setError({ field: (fields as readonly string[]).includes(field) ? (field as Field) : 'form', message });
  return {
    /** For the form's `ref`: where the message is looked for. */
    formRef,
    /** The message of `field`, or null. */
    errorOf: (field: Field | 'form') => (error?.field === field ? error.message : null),
    show,
    /** Takes away the message of `field`, if it is the one shown. */
    clear: (field: Field | 'form') => setError((e) => (e?.field === field ? null : e)),
    reset: () => setError(null),
    /** A save's outcome (mutate's options): done, or the server's message shown. */
    afterSave: (onDone: () => void) => ({
      onSuccess: onDone,
      onError: (err: unknown) =>
        show({ field: (err instanceof ApiError && err.field) || 'form', message: errorMessage(err) }),
    }),
  };
}

/**
 * Brings a form's message into view when it appears: on a phone the field that failed may be far above the
 * Salvar button that was pressed.
 */
function useRevealError(form: RefObject<HTMLFormElement | null>, error: unknown) {
  useEffect(() => {
    if (!error) return;
    const target = form.current?.querySelector('[aria-invalid="true"], [role="alert"]');
    target?.scrollIntoView({ block: 'nearest' });
  }, [form, error]);
}
