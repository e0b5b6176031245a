// The contact drawer (spec 2 §2.1, §2.3, §5): tags, variables and annotations of one contact, saved with
// Salvar. The service screen opens it from a conversation; the contacts screen from a row.
import {
  ActionIcon,
  Alert,
  Avatar,
  Button,
  Center,
  Code,
  Divider,
  Drawer,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, errorMessage } from '@/app/lib/api';
import { useFormMutation } from '@/app/lib/mutation';
import { notifySuccess } from '@/app/lib/notify';
import { callQuery } from '@/app/lib/query';
import { useBackClose } from '@/app/ui/back-stack';
import { displayName, initialsOf } from '@/app/ui/contact-name';
import { FormError } from '@/app/ui/FormParts';
import { TagSelect } from '@/app/ui/TagSelect';
import { useIsMobile } from '@/app/ui/use-is-mobile';
import type { ContactDetails } from '@/shared/contract/contacts';
import { formatDateTime, formatPhone } from '@/shared/format';
import { labels, messages } from '@/shared/messages';
import { contactVariableError, parseVariableValue } from '@/shared/rules/contact-variable';

interface Props {
  /** The contact shown; null keeps the drawer closed. */
  contactId: string | null;
  opened: boolean;
  onClose(): void;
  /** Tag changes made from a conversation are told to that conversation's screens at once. */
  conversationId?: string;
  onSaved?(contact: ContactDetails): void;
}

export const contactQuery = (contactId: string) => callQuery('get-contact-by-id', { contact_id: contactId });

export function ContactDrawer({ contactId, opened, onClose, conversationId, onSaved }: Props) {
  const mobile = useIsMobile();
  const top = useBackClose(opened && contactId !== null, onClose);
  return (
    <Drawer
      opened={opened && contactId !== null}
      onClose={onClose}
      closeOnEscape={top}
      position="right"
      size={mobile ? '100%' : 'md'}
      title={messages.contactData}
    >
      {contactId && (
        <ContactDetailsView
          contactId={contactId}
          conversationId={conversationId}
          onSaved={onSaved}
          onCancel={onClose}
        />
      )}
    </Drawer>
  );
}

function ContactDetailsView({
  contactId,
  conversationId,
  onSaved,
  onCancel,
}: {
  contactId: string;
  conversationId?: string;
  onSaved?(contact: ContactDetails): void;
  onCancel(): void;
}) {
  // Always the latest: another user may have added a note since.
  const contact = useQuery({ ...contactQuery(contactId), staleTime: 0 });
  if (contact.isPending)
    return (
      <Center py="xl">
        <Loader size="sm" aria-label={labels.common.loading} />
      </Center>
    );
  if (contact.isError)
    return (
      <Alert color="red" role="alert">
        {errorMessage(contact.error)}
      </Alert>
    );
  return (
    <ContactForm
      key={contact.data._id}
      contact={contact.data}
      conversationId={conversationId}
      onSaved={onSaved}
      onCancel={onCancel}
    />
  );
}

/** How a stored variable reads in the list: text as is, anything else as JSON. */
export const showVariable = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

const sameTags = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((t) => b.includes(t));

function ContactForm({
  contact,
  conversationId,
  onSaved,
  onCancel,
}: {
  contact: ContactDetails;
  conversationId?: string;
  onSaved?(contact: ContactDetails): void;
  onCancel(): void;
}) {
  const client = useQueryClient();
  const [tagIds, setTagIds] = useState<string[]>(contact.tags);
  const [data, setData] = useState<Record<string, unknown>>(contact.data);
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [variableError, setVariableError] = useState<string | null>(null);
  const [annotation, setAnnotation] = useState('');
  const { saving, error, save: run } = useFormMutation();
  const name = displayName(contact);

  /** The variable typed in the add row, checked; null when it is wrong (the message shows). */
  function pendingVariable(): Record<string, unknown> | null {
    const problem = contactVariableError(key, value, Object.keys(data));
    if (problem) {
      setVariableError(problem.message);
      return null;
    }
    return { ...data, [key.trim()]: parseVariableValue(value.trim()) };
  }

  function addVariable() {
    const next = pendingVariable();
    if (!next) return;
    setData(next);
    setKey('');
    setValue('');
    setVariableError(null);
  }

  function removeVariable(name: string) {
    const { [name]: _removed, ...rest } = data;
    setData(rest);
  }

  async function save() {
    // A variable typed but not added yet is saved too, when it follows the rules.
    let nextData = data;
    if (key.trim() || value.trim()) {
      const next = pendingVariable();
      if (!next) return;
      nextData = next;
    }
    await run(async () => {
      if (!sameTags(tagIds, contact.tags)) {
        await api('change-contact-tags', {
          contact_id: contact._id,
          tags: tagIds,
          conversation_id: conversationId,
        });
      }
      const text = annotation.trim();
      const saved = await api('change-contact-annotations-and-data', {
        contact_id: contact._id,
        data: nextData,
        ...(text && { new_annotation: text }),
      });
      client.setQueryData(contactQuery(contact._id).queryKey, saved);
      setData(saved.data);
      setKey('');
      setValue('');
      setAnnotation('');
      setVariableError(null);
      notifySuccess(messages.contactUpdated);
      onSaved?.(saved);
    });
  }

  const variables = Object.entries(data);
  const annotations = [...contact.annotations].reverse();

  return (
    <Stack gap="md">
      <Group wrap="nowrap">
        <Avatar
          src={contact.profile_picture}
          name={initialsOf(name)}
          color="initials"
          size={48}
          radius="xl"
          alt=""
        />
        <div style={{ minWidth: 0 }}>
          <Title order={3} size="h4" lineClamp={1}>
            {name}
          </Title>
          <Text size="sm" c="dimmed">
            {formatPhone(contact.phone)}
          </Text>
        </div>
      </Group>

      <TagSelect label={labels.common.tags} value={tagIds} onChange={setTagIds} />

      <Divider />
      <Stack gap="xs" component="section" aria-labelledby="contact-variables">
        <Title order={4} size="h5" id="contact-variables">
          {messages.variables}
        </Title>
        {variables.length === 0 ? (
          <Text size="sm" c="dimmed">
            {messages.paneNoVariables}
          </Text>
        ) : (
          <Stack
            gap={4}
            component="ul"
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
            aria-label={messages.variables}
          >
            {variables.map(([name, stored]) => (
              <Group key={name} component="li" gap="xs" wrap="nowrap" justify="space-between">
                <Text size="sm" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                  <Code>{name}</Code> {showVariable(stored)}
                </Text>
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={messages.paneVariableRemove(name)}
                  onClick={() => removeVariable(name)}
                >
                  <IconTrash size={16} aria-hidden />
                </ActionIcon>
              </Group>
            ))}
          </Stack>
        )}
        <Group gap="xs" align="flex-start" wrap="nowrap">
          <TextInput
            label={messages.paneVariableKey}
            value={key}
            onChange={(e) => {
              setKey(e.currentTarget.value);
              setVariableError(null);
            }}
            maxLength={100}
            style={{ flex: 1 }}
          />
          <TextInput
            label={messages.paneVariableValue}
            value={value}
            onChange={(e) => {
              setValue(e.currentTarget.value);
              setVariableError(null);
            }}
            style={{ flex: 1.4 }}
          />
        </Group>
        <FormError message={variableError} />
        <Group justify="flex-end">
          <Button variant="light" leftSection={<IconPlus size={16} aria-hidden />} onClick={addVariable}>
            {messages.paneVariableAdd}
          </Button>
        </Group>
      </Stack>

      <Divider />
      <Stack gap="xs" component="section" aria-labelledby="contact-annotations">
        <Title order={4} size="h5" id="contact-annotations">
          {messages.paneAnnotations}
        </Title>
        {annotations.length === 0 ? (
          <Text size="sm" c="dimmed">
            {messages.paneNoAnnotations}
          </Text>
        ) : (
          <Stack
            gap="xs"
            component="ul"
            style={{ listStyle: 'none', padding: 0, margin: 0 }}
            aria-label={messages.paneAnnotations}
          >
            {annotations.map((a, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: annotations are only ever appended
              <Paper key={i} component="li" withBorder p="xs" radius="md">
                <Group justify="space-between" gap="xs">
                  <Text size="xs" fw={600}>
                    {a.user || messages.paneAnnotationAuthorUnknown}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {formatDateTime(a.created)}
                  </Text>
                </Group>
                <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {a.text}
                </Text>
              </Paper>
            ))}
          </Stack>
        )}
        <Textarea
          label={messages.paneNewAnnotation}
          value={annotation}
          onChange={(e) => setAnnotation(e.currentTarget.value)}
          autosize
          minRows={2}
          maxRows={6}
          maxLength={4000}
        />
      </Stack>

      <FormError message={error} />
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onCancel}>
          {labels.common.cancel}
        </Button>
        <Button onClick={save} loading={saving}>
          {labels.common.save}
        </Button>
      </Group>
    </Stack>
  );
}
