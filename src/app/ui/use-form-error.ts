import { type RefObject, useEffect } from 'react';

/**
 * Brings a form's message into view when it appears: on a phone the field that failed may be far above the
 * Salvar button that was pressed.
 */
export function useRevealError(form: RefObject<HTMLFormElement | null>, error: unknown) {
  useEffect(() => {
    if (!error) return;
    const target = form.current?.querySelector('[aria-invalid="true"], [role="alert"]');
    target?.scrollIntoView({ block: 'nearest' });
  }, [form, error]);
}
