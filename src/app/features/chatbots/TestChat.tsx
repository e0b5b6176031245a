// 'Testar chatbot': a small chat against the real engine (test-chatbot) with the form's draft, unsaved edits
// included. The customer's lines on the left, the chatbot's on the right, a mark when a turn hands over.
// Nothing reaches a customer and nothing is stored.
import {
  ActionIcon,
  Alert,
  Box,
  Button,
  Group,
  Paper,
  Stack,
  Text,
  Textarea,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconArrowsTransferUp, IconEraser, IconSend } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { api, errorMessage } from '@/app/lib/api';
import { useIsMobile } from '@/app/ui/use-is-mobile';
import type { ChatbotDraft } from '@/shared/contract/chatbots';
import { labels, messages } from '@/shared/messages';
import { chatbotLabels } from '@/shared/messages-editors';
import { chatbotProblems } from '@/shared/rules/chatbot';
import { entriesOfTurn, type TestEntry, testLinesOf, transferTitle } from './chatbot-editor';

const L = chatbotLabels;

interface Props {
  draft: ChatbotDraft;
  /** The draft breaks a rule: the form shows its messages. */
  onInvalid(): void;
}

function Bubble({ entry }: { entry: TestEntry }) {
  if (entry.kind === 'transfer')
    return (
      <Paper
        withBorder
        p="xs"
        radius="md"
        bg="var(--mantine-color-orange-light)"
        role="note"
        style={{ alignSelf: 'center', maxWidth: '92%' }}
      >
        <Group gap={6} wrap="nowrap" align="flex-start">
          <IconArrowsTransferUp size={18} aria-hidden color="var(--mantine-color-orange-8)" />
          <div>
            <Text fz="sm" fw={600}>
              {transferTitle(entry.to)}
            </Text>
            {entry.reason && (
              <Text fz="xs" c="dimmed">
                {L.reason(entry.reason)}
              </Text>
            )}
          </div>
        </Group>
      </Paper>
    );
  const customer = entry.kind === 'customer';
  return (
    <Paper
      p="xs"
      px="sm"
      radius="md"
      shadow="xs"
      bg={customer ? 'var(--mantine-color-body)' : 'var(--mantine-color-teal-light)'}
      withBorder={customer}
      style={{ alignSelf: customer ? 'flex-start' : 'flex-end', maxWidth: '85%' }}
    >
      <Text fz="xs" fw={600} c={customer ? 'dimmed' : 'teal.8'}>
        {customer ? messages.customer : labels.common.chatbot}
      </Text>
      <Text fz="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {entry.text}
      </Text>
    </Paper>
  );
}

export function TestChat({ draft, onInvalid }: Props) {
  const mobile = useIsMobile();
  const [entries, setEntries] = useState<TestEntry[]>([]);
  const [text, setText] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [silent, setSilent] = useState(false);
  // 'Limpar conversa' while an answer is on its way: that answer belongs to the old chat.
  const generation = useRef(0);
  const log = useRef<HTMLDivElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: each new line or state scrolls to the end.
  useEffect(() => {
    const el = log.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [entries, pending, error]);

  async function send() {
    const line = text.trim();
    if (!line || pending) return;
    setError(null);
    setSilent(false);
    const problems = chatbotProblems(draft);
    if (problems.length) {
      setError(L.fixToTest);
      onInvalid();
      return;
    }
    const chat: TestEntry[] = [...entries, { kind: 'customer', text: line }];
    setEntries(chat);
    setText('');
    setPending(true);
    const mine = ++generation.current;
    try {
      const turn = await api('test-chatbot', {
        draft: { ...draft, flow: draft.redirect === 'flow_chatbot' ? draft.flow : null },
        lines: testLinesOf(chat),
      });
      if (mine !== generation.current) return;
      const added = entriesOfTurn(turn);
      setEntries([...chat, ...added]);
      setSilent(added.length === 0);
    } catch (err) {
      if (mine === generation.current) setError(errorMessage(err));
    } finally {
      if (mine === generation.current) setPending(false);
    }
  }

  function clear() {
    generation.current++;
    setEntries([]);
    setError(null);
    setSilent(false);
    setPending(false);
  }

  return (
    <Stack gap="xs" h="100%">
      <Group justify="space-between" wrap="nowrap" gap="xs">
        {/* On phones the tab already names it. */}
        {mobile ? (
          <VisuallyHidden>
            <Title order={2}>{L.testChatbot}</Title>
          </VisuallyHidden>
        ) : (
          <Title order={2} fz="h4">
            {L.testChatbot}
          </Title>
        )}
        <Button
          size="xs"
          variant="subtle"
          color="gray"
          leftSection={<IconEraser size={16} aria-hidden />}
          onClick={clear}
          disabled={entries.length === 0 && !error}
          ml="auto"
        >
          {L.clearConversation}
        </Button>
      </Group>
      <Box
        ref={log}
        role="log"
        aria-label={L.testConversation}
        aria-live="polite"
        p="xs"
        style={{
          flex: 1,
          minHeight: 160,
          overflowY: 'auto',
          display: 'flex',
          flexDirection: 'column',
          gap: 8,
          borderRadius: 'var(--mantine-radius-md)',
          background: 'var(--mantine-color-gray-0)',
        }}
      >
        {entries.length === 0 && !pending && (
          <Text fz="sm" c="dimmed" ta="center" my="auto">
            {L.testDescription}
          </Text>
        )}
        {entries.map((entry, index) => (
          // The chat only grows (or is cleared): a line's position is its identity.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above.
          <Bubble key={index} entry={entry} />
        ))}
        {pending && (
          <Text fz="xs" c="dimmed" fs="italic" style={{ alignSelf: 'flex-end' }}>
            {messages.typing}
          </Text>
        )}
        {silent && (
          <Text fz="xs" c="dimmed" ta="center">
            {L.noAnswer}
          </Text>
        )}
      </Box>
      {error && (
        <Alert color="red" role="alert" title={L.testFailed} p="xs">
          {error}
        </Alert>
      )}
      <Group gap="xs" wrap="nowrap" align="flex-end">
        <Textarea
          aria-label={L.customerMessage}
          placeholder={L.customerMessagePlaceholder}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => {
            // Enter sends on desktop; on phones it adds a line (the send button sends).
            if (e.key === 'Enter' && !e.shiftKey && !mobile && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void send();
            }
          }}
          autosize
          minRows={1}
          maxRows={4}
          maxLength={4096}
          style={{ flex: 1 }}
        />
        <ActionIcon
          size="lg"
          aria-label={messages.send}
          onClick={() => void send()}
          loading={pending}
          disabled={!text.trim()}
          mb={2}
        >
          <IconSend size={18} aria-hidden />
        </ActionIcon>
      </Group>
    </Stack>
  );
}
