import { type RefObject, useEffect, useRef, useState } from 'react';
import { errorMessage } from '@/app/lib/api';

/**
 * A dialog form's message, one at a time: shown on the field it belongs to (`fieldOf`), or under the form
 * ('form') for anything else, such as a server answer. A field's message goes away as soon as the field is
 * changed, and a message that appears is brought into view.
 */
export function useFormError<Field extends string>(fieldOf: (message: string) => Field) {
  const [error, setError] = useState<{ field: Field; message: string } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  useRevealError(formRef, error);
  const show = (message: string) => setError({ field: fieldOf(message), message });
  return {
    /** For the form's `ref`: where the message is looked for. */
    formRef,
    /** The message of `field`, or null. */
    errorOf: (field: Field) => (error?.field === field ? error.message : null),
    show,
    /** Takes away the message of `field`, if it is the one shown. */
    clear: (field: Field) => setError((e) => (e?.field === field ? null : e)),
    reset: () => setError(null),
    /** A save's outcome (mutate's options): done, or the server's message shown. */
    afterSave: (onDone: () => void) => ({
      onSuccess: onDone,
      onError: (err: unknown) => show(errorMessage(err)),
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
