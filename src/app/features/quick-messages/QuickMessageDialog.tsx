import { Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { EditDialog } from '@/app/ui/Dialog';
import { DialogForm } from '@/app/ui/FormParts';
import type { EditDialogState } from '@/app/ui/use-edit-dialog';
import { useFormError } from '@/app/ui/use-form-error';
import { useItemId } from '@/app/ui/use-item-id';
import type { QuickMessage } from '@/shared/contract/configuration';
import { labels } from '@/shared/messages';
import { prepareQuickMessage } from '@/shared/rules/quick-message';
import { useSaveQuickMessage } from './create-or-update-quick-message';

const FIELDS = ['shortcut', 'message'] as const;

export function QuickMessageDialog({ dialog }: { dialog: EditDialogState<QuickMessage> }) {
  return (
    <EditDialog
      dialog={dialog}
      title={dialog.item ? labels.quickMessages.editQuickMessage : labels.quickMessages.newQuickMessage}
    >
      <QuickMessageForm quickMessage={dialog.item} onDone={dialog.close} />
    </EditDialog>
  );
}

function QuickMessageForm({ quickMessage, onDone }: { quickMessage: QuickMessage | null; onDone(): void }) {
  const itemId = useItemId(quickMessage);
  const save = useSaveQuickMessage();
  const [shortcut, setShortcut] = useState(quickMessage?.shortcut ?? '');
  const [message, setMessage] = useState(quickMessage?.message ?? '');
  const { formRef, errorOf, show, clear, reset, afterSave } = useFormError(FIELDS);

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const result = prepareQuickMessage({ shortcut, message });
    if (!result.ok) return show(result.error);
    reset();
    save.mutate({ _id: itemId, ...result.quickMessage }, afterSave(onDone));
  }

  return (
    <DialogForm
      formRef={formRef}
      onSubmit={submit}
      error={errorOf('form')}
      onCancel={onDone}
      loading={save.isPending}
    >
      <TextInput
        label={labels.quickMessages.shortcut}
        description={labels.quickMessages.shortcutHint}
        // The '/' is shown before the field and never stored.
        leftSection={
          <Text c="dimmed" fw={600} aria-hidden>
            /
          </Text>
        }
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        value={shortcut}
        onChange={(e) => {
          setShortcut(e.currentTarget.value.replace(/^\/+/, ''));
          clear('shortcut');
        }}
        error={errorOf('shortcut')}
        data-autofocus
      />
      <Textarea
        label={labels.common.message}
        autosize
        minRows={4}
        maxRows={12}
        value={message}
        onChange={(e) => {
          setMessage(e.currentTarget.value);
          clear('message');
        }}
        error={errorOf('message')}
      />
    </DialogForm>
  );
}
