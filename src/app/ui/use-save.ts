import { useState } from 'react';
import { errorMessage } from '@/app/lib/api';

/**
 * A form's save that calls the server: `saving` while it runs, and the form's message in `error` (a rule's,
 * set by the form, or the failure's pt-BR text).
 */
export function useSave() {
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function save(work: () => Promise<void>) {
    setSaving(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setSaving(false);
    }
  }
  return { saving, error, setError, save };
}
