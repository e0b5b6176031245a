import { MultiSelect, Stack } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Conversation } from '../../../../shared/contract/conversations';
import { messages } from '../../../../shared/messages';
import { api, errorMessage } from '../../../lib/api';
import { notifySuccess } from '../../../lib/notify';
import { callQuery } from '../../../lib/query';
import { Dialog } from '../../../ui/Dialog';
import { FormActions, FormError } from '../../../ui/FormParts';
import { patchContact } from './conversation-actions';

interface Props {
  conversation: Conversation;
  opened: boolean;
  onClose(): void;
}

/** Atribuir tags: the contact's tags, told to this conversation's screens at once (conversation id). */
export function TagsDialog({ conversation, opened, onClose }: Props) {
  return (
    <Dialog opened={opened} onClose={onClose} title={messages.paneAssignTags}>
      <TagsForm conversation={conversation} onDone={onClose} />
    </Dialog>
  );
}

function TagsForm({ conversation, onDone }: { conversation: Conversation; onDone(): void }) {
  const client = useQueryClient();
  const tags = useQuery(callQuery('get-tags-by-user'));
  const [value, setValue] = useState<string[]>(conversation.contact.tags);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const data = (tags.data ?? []).filter((t) => !t.filed).map((t) => ({ value: t._id, label: t.name }));

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setSaving(true);
    setError(null);
    try {
      const contact = await api('change-contact-tags', {
        contact_id: conversation.contact._id,
        tags: value,
        conversation_id: conversation._id,
      });
      patchContact(client, conversation, contact);
      notifySuccess(messages.tagsUpdated);
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
        <MultiSelect
          label={messages.paneTagsLabel}
          placeholder={value.length ? undefined : messages.paneTagsPlaceholder}
          data={data}
          value={value}
          onChange={setValue}
          searchable
          clearable
          hidePickedOptions
          comboboxProps={{ withinPortal: true }}
          data-autofocus
        />
        <FormError message={error} />
        <FormActions onCancel={onDone} loading={saving} />
      </Stack>
    </form>
  );
}
