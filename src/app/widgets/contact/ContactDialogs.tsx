// A contact's two small dialogs (spec 2 §2.1, §2.3): its display name and its tags. The service screen opens
// them from a conversation's menu, the contacts screen from a row; each says what follows a save (onSaved).
import { TextInput } from '@mantine/core';
import { useState } from 'react';
import { api } from '@/app/lib/api';
import { useFormMutation } from '@/app/lib/mutation';
import { notifySuccess } from '@/app/lib/notify';
import { Dialog } from '@/app/ui/Dialog';
import { DialogForm } from '@/app/ui/FormParts';
import { TagSelect } from '@/app/ui/TagSelect';
import type { ContactDetails } from '@/shared/contract/contacts';
import type { Contact } from '@/shared/contract/conversations';
import { labels, messages } from '@/shared/messages';

interface Props {
  /** The contact edited; null keeps the dialog closed. */
  contact: Contact | null;
  opened: boolean;
  onClose(): void;
  /** The dialog's title: the name of the entry that opened it. */
  title: string;
  /** The saved contact, for the screen that shows it. */
  onSaved(contact: ContactDetails): void;
}

interface FormProps {
  contact: Contact;
  onSaved(contact: ContactDetails): void;
  onDone(): void;
}

/** Editar nome: the name the team gives, shown before the profile name (override_name). */
export function ContactNameDialog({ contact, opened, onClose, title, onSaved }: Props) {
  return (
    <Dialog opened={opened && contact !== null} onClose={onClose} title={title}>
      {contact && <NameForm key={contact._id} contact={contact} onSaved={onSaved} onDone={onClose} />}
    </Dialog>
  );
}

/** Atribuir tags; from a conversation (conversationId) the change is told to its screens at once. */
export function ContactTagsDialog({
  conversationId,
  contact,
  opened,
  onClose,
  title,
  onSaved,
}: Props & { conversationId?: string }) {
  return (
    <Dialog opened={opened && contact !== null} onClose={onClose} title={title}>
      {contact && (
        <TagsForm
          key={contact._id}
          contact={contact}
          conversationId={conversationId}
          onSaved={onSaved}
          onDone={onClose}
        />
      )}
    </Dialog>
  );
}

/** A small form's submit: the call, the spec's success text, the saved contact handed on, the dialog closed. */
function useSubmit(call: () => Promise<ContactDetails>, success: string, { onSaved, onDone }: FormProps) {
  const { saving, error, save } = useFormMutation();
  async function submit(e: React.FormEvent) {
    e.preventDefault();
    await save(async () => {
      onSaved(await call());
      notifySuccess(success);
      onDone();
    });
  }
  return { submit, error, saving };
}

function NameForm(props: FormProps) {
  const { contact, onDone } = props;
  const [name, setName] = useState(contact.override_name ?? contact.name);
  const { submit, error, saving } = useSubmit(
    () => api('change-contact-name', { contact_id: contact._id, override_name: name.trim() }),
    messages.nameUpdated,
    props,
  );
  return (
    <DialogForm onSubmit={submit} error={error} onCancel={onDone} loading={saving}>
      <TextInput
        label={messages.paneNameLabel}
        description={messages.paneNameHint}
        placeholder={contact.name}
        value={name}
        maxLength={200}
        onChange={(e) => setName(e.currentTarget.value)}
        data-autofocus
      />
    </DialogForm>
  );
}

function TagsForm({ conversationId, ...props }: FormProps & { conversationId?: string }) {
  const { contact, onDone } = props;
  const [value, setValue] = useState<string[]>(contact.tags);
  const { submit, error, saving } = useSubmit(
    () =>
      api('change-contact-tags', { contact_id: contact._id, tags: value, conversation_id: conversationId }),
    messages.tagsUpdated,
    props,
  );
  return (
    <DialogForm onSubmit={submit} error={error} onCancel={onDone} loading={saving}>
      <TagSelect
        label={labels.common.tags}
        value={value}
        onChange={setValue}
        comboboxProps={{ withinPortal: true }}
        data-autofocus
      />
    </DialogForm>
  );
}
