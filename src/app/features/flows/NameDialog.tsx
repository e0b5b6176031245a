import { TextInput } from '@mantine/core';
import { useState } from 'react';
import { errorMessage } from '@/app/lib/api';
import { Dialog } from '@/app/ui/Dialog';
import { DialogForm } from '@/app/ui/FormParts';
import { messages } from '@/shared/messages';

interface Props {
  opened: boolean;
  title: string;
  label: string;
  /** The name the field starts with. */
  initial: string;
  submitLabel: string;
  onClose(): void;
  /** Saves; a refusal (the plan's limit, a taken name) is thrown and shown under the field. */
  onSubmit(name: string): Promise<unknown>;
}

/** Novo fluxo / Duplicar fluxo: one required name. */
export function NameDialog({ opened, title, onClose, ...form }: Props) {
  return (
    <Dialog opened={opened} onClose={onClose} title={title}>
      {opened && <NameForm {...form} onClose={onClose} />}
    </Dialog>
  );
}

function NameForm({ label, initial, submitLabel, onClose, onSubmit }: Omit<Props, 'opened' | 'title'>) {
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!name.trim()) return setError(messages.nameRequired);
    setSaving(true);
    try {
      await onSubmit(name.trim());
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setSaving(false);
    }
  }

  return (
    <DialogForm onSubmit={submit} error={null} onCancel={onClose} loading={saving} label={submitLabel}>
      <TextInput
        label={label}
        value={name}
        onChange={(e) => {
          setName(e.currentTarget.value);
          setError(null);
        }}
        error={error}
        maxLength={200}
        data-autofocus
      />
    </DialogForm>
  );
}
