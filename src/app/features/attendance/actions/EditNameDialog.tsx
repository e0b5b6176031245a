import { Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Conversation } from '../../../../shared/contract/conversations';
import { messages } from '../../../../shared/messages';
import { api, errorMessage } from '../../../lib/api';
import { notifySuccess } from '../../../lib/notify';
import { Dialog } from '../../../ui/Dialog';
import { FormActions, FormError } from '../../../ui/FormParts';
import { patchContact } from './conversation-actions';

interface Props {
  conversation: Conversation;
  opened: boolean;
  onClose(): void;
}

/** Editar nome do contato: the name the team gives, shown before the profile name (override_name). */
export function EditNameDialog({ conversation, opened, onClose }: Props) {
  return (
    <Dialog opened={opened} onClose={onClose} title={messages.paneEditName}>
      <NameForm conversation={conversation} onDone={onClose} />
    </Dialog>
  );
}

function NameForm({ conversation, onDone }: { conversation: Conversation; onDone(): void }) {
  const client = useQueryClient();
  const { contact } = conversation;
  const [name, setName] = useState(contact.override_name ?? contact.name);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setSaving(true);
    setError(null);
    try {
      const saved = await api('change-contact-name', { contact_id: contact._id, override_name: name.trim() });
      patchContact(client, conversation, saved);
      notifySuccess(messages.nameUpdated);
      onDone();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setSaving(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label={messages.paneNameLabel}
          description={messages.paneNameHint}
          placeholder={contact.name}
          value={name}
          maxLength={200}
          onChange={(e) => setName(e.currentTarget.value)}
          data-autofocus
        />
        <FormError message={error} />
        <FormActions onCancel={onDone} loading={saving} />
      </Stack>
    </form>
  );
}
