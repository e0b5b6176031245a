import { Alert, Button, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useRef, useState } from 'react';
import type { QuickMessage } from '../../../shared/contract/configuration';
import { messages } from '../../../shared/messages';
import { prepareQuickMessage } from '../../../shared/rules/quick-message';
import { errorMessage } from '../../lib/api';
import { Dialog } from '../../ui/Dialog';
import { useRevealError } from '../../ui/use-reveal-error';
import { useSaveQuickMessage } from './create-or-update-quick-message';

type Field = 'shortcut' | 'message' | 'form';

function fieldOf(message: string): Field {
  switch (message) {
    case messages.quickMessageShortcutRequired:
    case messages.quickMessageShortcutTaken:
      return 'shortcut';
    case messages.quickMessageMessageRequired:
      return 'message';
    default:
      return 'form';
  }
}

interface QuickMessageDialogProps {
  opened: boolean;
  /** The quick message to edit; null for a new one. */
  quickMessage: QuickMessage | null;
  /** A fresh key per opening: the form starts from `quickMessage` each time. */
  formKey: number;
  onClose(): void;
}

export function QuickMessageDialog({ opened, quickMessage, formKey, onClose }: QuickMessageDialogProps) {
  return (
    <Dialog
      opened={opened}
      onClose={onClose}
      title={quickMessage ? 'Editar mensagem rápida' : 'Nova mensagem rápida'}
    >
      <QuickMessageForm key={formKey} quickMessage={quickMessage} onDone={onClose} />
    </Dialog>
  );
}

function QuickMessageForm({ quickMessage, onDone }: { quickMessage: QuickMessage | null; onDone(): void }) {
  const save = useSaveQuickMessage();
  const [shortcut, setShortcut] = useState(quickMessage?.shortcut ?? '');
  const [message, setMessage] = useState(quickMessage?.message ?? '');
  const [error, setError] = useState<{ field: Field; message: string } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  useRevealError(formRef, error);
  const errorOf = (field: Field) => (error?.field === field ? error.message : null);
  const show = (text: string) => setError({ field: fieldOf(text), message: text });
  // A field's message goes away as soon as the field is changed.
  const clear = (field: Field) => setError((e) => (e?.field === field ? null : e));

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const result = prepareQuickMessage({ shortcut, message });
    if (!result.ok) return show(result.error);
    setError(null);
    save.mutate(
      { ...(quickMessage && { _id: quickMessage._id }), ...result.quickMessage },
      { onSuccess: onDone, onError: (err) => show(errorMessage(err)) },
    );
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label="Atalho"
          description="Na conversa, digite / e o atalho para usar esta mensagem."
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
          label="Mensagem"
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
        {errorOf('form') && (
          <Alert color="red" role="alert">
            {errorOf('form')}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone}>
            Cancelar
          </Button>
          <Button type="submit" loading={save.isPending}>
            Salvar
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
