// The editor's frame: header (back, title, Salvar), the form, and 'Testar chatbot' beside it on desktop or in
// a tab on phones. Salvar checks the shared rules first (each field's message under it), then the server's
// refusal lands on its field. Leaving with unsaved changes asks first.
import { ActionIcon, Box, Button, Group, Paper, Tabs, Title } from '@mantine/core';
import { IconArrowLeft, IconDeviceFloppy } from '@tabler/icons-react';
import { useBlocker, useNavigate } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import { ApiError, errorMessage } from '@/app/lib/api';
import { confirm } from '@/app/ui/confirm';
import { useIsMobile } from '@/app/ui/use-is-mobile';
import type { ChatbotDraft } from '@/shared/contract/chatbots';
import { labels } from '@/shared/messages';
import { chatbotLabels, flowEditorLabels } from '@/shared/messages-editors';
import { chatbotProblems } from '@/shared/rules/chatbot';
import { ChatbotForm, type FormProblem } from './ChatbotForm';
import { useSaveChatbot } from './chatbot-actions';
import { fingerprint, refusalField } from './chatbot-editor';
import { TestChat } from './TestChat';

const L = chatbotLabels;

interface Props {
  /** The saved chatbot's id; null for a new one. */
  id: string | null;
  initial: ChatbotDraft;
  /** A new chatbot was saved: the page's address takes its id. */
  onCreated?(id: string): void;
}

export function ChatbotEditor({ id: initialId, initial, onCreated }: Props) {
  const mobile = useIsMobile();
  const navigate = useNavigate();
  const save = useSaveChatbot();
  const [id, setId] = useState(initialId);
  const [draft, setDraft] = useState(initial);
  const [checking, setChecking] = useState(false);
  const [refusal, setRefusal] = useState<FormProblem | null>(null);
  const [tab, setTab] = useState<string | null>('form');
  // What the last save sent (for a new chatbot: the empty form, which is nothing to lose).
  const saved = useRef(fingerprint(initial));
  const formRef = useRef<HTMLFormElement>(null);
  const dirty = useRef(false);
  const latest = useRef(draft);
  latest.current = draft;
  dirty.current = fingerprint(draft) !== saved.current;

  useBlocker({
    // A step within this screen (a phone's layer: a confirmation, a menu, leaving its history entry) is not leaving.
    shouldBlockFn: async ({ current, next }) => {
      if (!dirty.current || current.pathname === next.pathname) return false;
      return !(await confirm({
        title: flowEditorLabels.leaveTitle,
        message: flowEditorLabels.leaveQuestion,
        danger: true,
      }));
    },
    enableBeforeUnload: () => dirty.current,
  });

  /** Shows the fields' messages and brings the first into view (the form's tab on phones). */
  function reveal() {
    setChecking(true);
    setTab('form');
    requestAnimationFrame(() =>
      formRef.current
        ?.querySelector('[aria-invalid="true"], [data-invalid="true"], [role="alert"]')
        ?.scrollIntoView({ block: 'center' }),
    );
  }

  function submit(e?: React.FormEvent) {
    e?.preventDefault();
    // Enter in a field while a save runs: a new chatbot must not be created twice.
    if (save.isPending) return;
    setRefusal(null);
    if (chatbotProblems(draft).length) return reveal();
    const sent = draft;
    save.mutate(
      { _id: id ?? undefined, draft: sent },
      {
        onSuccess: (chatbot) => {
          saved.current = fingerprint(sent);
          dirty.current = fingerprint(latest.current) !== saved.current;
          if (!id) {
            setId(chatbot._id);
            onCreated?.(chatbot._id);
            void navigate({ href: `/chatbots/${encodeURIComponent(chatbot._id)}`, replace: true });
          }
        },
        onError: (err) => {
          const field = err instanceof ApiError ? refusalField(err.field) : null;
          setRefusal({ field: field ?? 'form', message: errorMessage(err) });
          reveal();
        },
      },
    );
  }

  const change = (next: ChatbotDraft) => {
    setDraft(next);
    setRefusal(null);
  };

  const form = (
    <ChatbotForm
      formRef={formRef}
      draft={draft}
      onChange={change}
      checking={checking}
      refusal={refusal}
      onSubmit={submit}
    />
  );
  const test = <TestChat draft={draft} onInvalid={reveal} />;

  return (
    <Box>
      <Group justify="space-between" wrap="nowrap" mb="md" gap="sm">
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={L.back}
            onClick={() => void navigate({ href: '/chatbots' })}
          >
            <IconArrowLeft size={22} aria-hidden />
          </ActionIcon>
          <Title order={1} fz={{ base: 'h4', sm: 'h2' }} lineClamp={1}>
            {id ? draft.name.trim() || L.editChatbot : L.newChatbot}
          </Title>
        </Group>
        <Button
          leftSection={<IconDeviceFloppy size={18} aria-hidden />}
          // The title gives way (it is clamped), never the button: at 360 px it read 'Salva'.
          style={{ flexShrink: 0 }}
          loading={save.isPending}
          onClick={() => submit()}
        >
          {labels.common.save}
        </Button>
      </Group>
      {mobile ? (
        <Tabs value={tab} onChange={setTab} keepMounted>
          <Tabs.List grow mb="md">
            <Tabs.Tab value="form">{L.settings}</Tabs.Tab>
            <Tabs.Tab value="test">{L.testChatbot}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="form">{form}</Tabs.Panel>
          <Tabs.Panel value="test">
            <Paper withBorder p="sm" h="calc(100dvh - 200px)" mih={380}>
              {test}
            </Paper>
          </Tabs.Panel>
        </Tabs>
      ) : (
        <Group align="flex-start" gap="lg" wrap="nowrap">
          <Box style={{ flex: 1, minWidth: 0 }}>{form}</Box>
          <Paper
            withBorder
            p="sm"
            w={380}
            style={{
              flexShrink: 0,
              position: 'sticky',
              top: 'calc(var(--app-shell-header-height, 56px) + var(--mantine-spacing-lg))',
              height: 'calc(100dvh - var(--app-shell-header-height, 56px) - 2 * var(--mantine-spacing-lg))',
              minHeight: 420,
            }}
          >
            {test}
          </Paper>
        </Group>
      )}
    </Box>
  );
}
