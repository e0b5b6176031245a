// The selected node's panel (a side panel on desktops, a bottom drawer on phones): its data in Mantine
// fields, each change one step of the history (typing coalesces). The option rules show as the user types;
// the node's whole problem shows once a save found problems.
import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  FileInput,
  Group,
  MultiSelect,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconPlus, IconTrash, IconUpload, IconX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useMemo, useState } from 'react';
import { errorMessage, upload } from '@/app/lib/api';
import { chatbotOptions, useDepartments, useTags } from '@/app/lib/lists';
import { callQuery } from '@/app/lib/query';
import {
  type AnyFlowNode,
  type FlowNode,
  type FlowNodeData,
  type FlowNodeType,
  MESSAGE_KINDS,
  QUESTION_VALIDATIONS,
  WAIT_UNITS,
} from '@/shared/contract/flows';
import { labels, messages } from '@/shared/messages';
import { flowEditorLabels } from '@/shared/messages-editors';
import {
  INTERACTIVE_LIMITS,
  nodeProblem,
  optionProblem,
  percentProblem,
  TEXT_LIMIT,
} from '@/shared/rules/flow';
import { NODE_LOOK } from './FlowNodeView';
import { newId, optionMessages } from './graph';

const L = flowEditorLabels;

type Edit<T extends FlowNodeType> = {
  node: FlowNode<T>;
  set(data: FlowNodeData[T]): void;
};

export interface NodePanelProps {
  node: AnyFlowNode;
  flowId: string;
  /** The node's problem is shown (a save found problems). */
  showProblem: boolean;
  onChange(id: string, data: Record<string, unknown>): void;
  onDelete(id: string): void;
  onClose(): void;
}

export function NodePanel({ node, flowId, showProblem, onChange, onDelete, onClose }: NodePanelProps) {
  const set = (data: unknown) => onChange(node.id, data as Record<string, unknown>);
  const problem = showProblem ? nodeProblem(node) : null;
  const Icon = NODE_LOOK[node.type].icon;
  return (
    <Stack gap="md" p="md" data-testid="node-panel" aria-label={L.nodeTypes[node.type]}>
      <Group justify="space-between" wrap="nowrap">
        <Group gap="xs" wrap="nowrap">
          <Icon size={20} aria-hidden color={`var(--mantine-color-${NODE_LOOK[node.type].color}-6)`} />
          <Text fw={600}>{L.nodeTypes[node.type]}</Text>
        </Group>
        <Group gap={4} wrap="nowrap">
          {node.type !== 'start' && (
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={L.deleteComponent}
              onClick={() => onDelete(node.id)}
            >
              <IconTrash size={18} aria-hidden />
            </ActionIcon>
          )}
          <ActionIcon variant="subtle" color="gray" aria-label={L.closePanel} onClick={onClose}>
            <IconX size={18} aria-hidden />
          </ActionIcon>
        </Group>
      </Group>
      {problem && (
        <Alert color="red" variant="light" role="alert" p="xs">
          {problem}
        </Alert>
      )}
      <Fields node={node} set={set} flowId={flowId} />
    </Stack>
  );
}

function Fields({ node, set, flowId }: { node: AnyFlowNode; set(d: unknown): void; flowId: string }) {
  switch (node.type) {
    case 'start':
      return <Text c="dimmed">{L.startHint}</Text>;
    case 'message':
      return <MessageFields node={node} set={set} />;
    case 'question':
      return <QuestionFields node={node} set={set} />;
    case 'buttons':
      return <OptionsFields node={node} set={set} />;
    case 'list':
      return <OptionsFields node={node} set={set} />;
    case 'randomizer':
      return <RandomizerFields node={node} set={set} />;
    case 'add_tag':
    case 'remove_tag':
    case 'tag_condition':
      return <TagFields node={node} set={set} />;
    case 'opening_hours':
      return <HoursFields node={node} set={set} />;
    case 'wait':
      return <DurationFields value={node.data} onChange={set} />;
    case 'http':
      return <HttpFields node={node} set={set} />;
    case 'redirect':
      return <RedirectFields node={node} set={set} flowId={flowId} />;
    case 'end':
      return (
        <LimitedText
          label={L.farewellMessage}
          value={node.data.text}
          max={TEXT_LIMIT}
          onChange={(text) => set({ ...node.data, text })}
        />
      );
  }
}

/** A text with its count; over the limit it says 'Limite de caracteres atingidos' at once. */
function LimitedText({
  label,
  value,
  max,
  onChange,
  description,
  minRows = 3,
}: {
  label: string;
  value: string;
  max: number;
  onChange(v: string): void;
  description?: ReactNode;
  minRows?: number;
}) {
  return (
    <Textarea
      label={label}
      description={description}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      autosize
      minRows={minRows}
      maxRows={10}
      error={value.length > max ? messages.flowCharacterLimit : undefined}
      rightSection={
        <Text fz={10} c="dimmed" pr={4}>
          {L.characters(value.length, max)}
        </Text>
      }
      rightSectionWidth={64}
      rightSectionProps={{ style: { alignItems: 'flex-end', paddingBottom: 4 } }}
    />
  );
}

const MEDIA_ACCEPT: Record<string, string> = {
  image: 'image/jpeg,image/png',
  audio: 'audio/mpeg,.mp3,audio/ogg',
  video: 'video/mp4,video/3gpp,.mp4,.3gp',
  document: 'text/plain,application/pdf,.txt,.pdf,.doc,.docx,.xls,.xlsx,.ppt,.pptx',
};

function MessageFields({ node, set }: Edit<'message'>) {
  const d = node.data;
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function send(file: File | null) {
    if (!file || d.kind === 'text') return;
    setBusy(true);
    setError(null);
    try {
      const answer = await upload('upload-file', file, file.name, { type: d.kind, filename: file.name });
      set({ ...d, media_url: answer.url, file_name: answer.file_name });
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Select
        label={messages.messageType}
        data={MESSAGE_KINDS.map((k) => ({ value: k, label: L.messageTypes[k] }))}
        value={d.kind}
        allowDeselect={false}
        onChange={(kind) =>
          kind &&
          set({
            ...d,
            kind: kind as typeof d.kind,
            ...(kind !== d.kind && { media_url: null, file_name: null }),
          })
        }
      />
      {d.kind !== 'text' && (
        <Stack gap={4}>
          <FileInput
            key={d.kind}
            label={messages.mediaFileLabel}
            placeholder={busy ? L.sendingFile : L.chooseFile}
            accept={MEDIA_ACCEPT[d.kind]}
            onChange={(f) => void send(f)}
            disabled={busy}
            leftSection={<IconUpload size={16} aria-hidden />}
            error={error}
          />
          {d.file_name && (
            <Text fz="sm" c="dimmed">
              {L.fileCurrent(d.file_name)}
            </Text>
          )}
        </Stack>
      )}
      <LimitedText
        label={d.kind === 'text' ? labels.schedule.text : L.caption}
        description={L.variablesHint}
        value={d.text}
        max={TEXT_LIMIT}
        onChange={(text) => set({ ...d, text })}
      />
      <NumberInput
        label={L.secondsTyping}
        value={d.typing_seconds}
        min={0}
        max={30}
        clampBehavior="strict"
        allowDecimal={false}
        onChange={(v) => set({ ...d, typing_seconds: typeof v === 'number' ? v : 0 })}
      />
    </>
  );
}

function QuestionFields({ node, set }: Edit<'question'>) {
  const d = node.data;
  const variableBad = d.variable !== '' && !/^[A-Za-z0-9_]{1,64}$/.test(d.variable);
  return (
    <>
      <LimitedText
        label={labels.schedule.text}
        description={L.variablesHint}
        value={d.text}
        max={TEXT_LIMIT}
        onChange={(text) => set({ ...d, text })}
      />
      <Select
        label={L.validation}
        data={QUESTION_VALIDATIONS.map((v) => ({ value: v, label: L.validations[v] }))}
        value={d.validation}
        allowDeselect={false}
        onChange={(v) => v && set({ ...d, validation: v as typeof d.validation })}
      />
      <TextInput
        label={L.saveInVariable}
        description={L.variableHint}
        value={d.variable}
        onChange={(e) => set({ ...d, variable: e.currentTarget.value })}
        error={variableBad ? messages.flowVariableInvalid : undefined}
      />
      <LimitedText
        label={L.retryText}
        value={d.retry_text}
        max={1024}
        minRows={2}
        onChange={(retry_text) => set({ ...d, retry_text })}
      />
      <Switch
        label={L.timeLimit}
        checked={d.timeout !== null}
        onChange={(e) =>
          set({ ...d, timeout: e.currentTarget.checked ? { amount: 10, unit: 'minutes' } : null })
        }
      />
      {d.timeout && <DurationFields value={d.timeout} onChange={(timeout) => set({ ...d, timeout })} />}
    </>
  );
}

function DurationFields({
  value,
  onChange,
}: {
  value: FlowNodeData['wait'];
  onChange(v: FlowNodeData['wait']): void;
}) {
  return (
    <Group grow align="flex-start">
      <NumberInput
        label={L.amount}
        value={value.amount}
        min={0}
        max={100_000}
        allowDecimal={false}
        clampBehavior="strict"
        onChange={(v) => onChange({ ...value, amount: typeof v === 'number' ? v : 0 })}
        error={value.amount > 0 ? undefined : messages.flowWaitRequired}
      />
      <Select
        label={messages.unit}
        data={WAIT_UNITS.map((u) => ({ value: u, label: L.units[u] }))}
        value={value.unit}
        allowDeselect={false}
        onChange={(u) => u && onChange({ ...value, unit: u as typeof value.unit })}
      />
    </Group>
  );
}

function OptionsFields({ node, set }: Edit<'buttons'> | Edit<'list'>) {
  const type = node.type;
  const d = node.data;
  const max = type === 'buttons' ? INTERACTIVE_LIMITS.quickReplies : INTERACTIVE_LIMITS.listRows;
  const titleMax = type === 'buttons' ? INTERACTIVE_LIMITS.buttonTitle : INTERACTIVE_LIMITS.rowTitle;
  const [addError, setAddError] = useState<string | null>(null);
  const perOption = optionMessages(type, d.options);
  const update = (options: typeof d.options) => {
    setAddError(null);
    set({ ...d, options } as never);
  };

  function add() {
    const options = [
      ...d.options,
      { id: newId('opt'), title: '', ...(type === 'list' && { description: '' }) },
    ];
    // The rule itself says when one more is too many ('Só é possivel adicionar 3 opções…').
    const problem = optionProblem(type, options);
    if (problem === messages.flowMaxQuickReplies || problem === messages.flowMaxListRows) {
      setAddError(problem);
      return;
    }
    update(options);
  }

  return (
    <>
      <LimitedText
        label={labels.schedule.text}
        value={d.text}
        max={INTERACTIVE_LIMITS.body}
        onChange={(text) => set({ ...d, text } as never)}
      />
      {node.type === 'list' && (
        <TextInput
          label={L.listButtonText}
          value={node.data.button}
          onChange={(e) => set({ ...node.data, button: e.currentTarget.value })}
          error={
            node.data.button.length > INTERACTIVE_LIMITS.listButton ? messages.flowCharacterLimit : undefined
          }
          rightSection={
            <Text fz={10} c="dimmed">
              {L.characters(node.data.button.length, INTERACTIVE_LIMITS.listButton)}
            </Text>
          }
          rightSectionWidth={48}
        />
      )}
      <Stack gap="xs">
        <Text fw={500} fz="sm">
          {labels.flowMenus.options}
        </Text>
        {d.options.map((o, i) => (
          <Group key={o.id} gap="xs" align="flex-start" wrap="nowrap">
            <Stack gap={4} style={{ flex: 1 }}>
              <TextInput
                aria-label={`${L.title} ${i + 1}`}
                placeholder={L.optionN(i + 1)}
                value={o.title}
                onChange={(e) => {
                  const title = e.currentTarget.value;
                  update(d.options.map((x) => (x.id === o.id ? { ...x, title } : x)));
                }}
                error={perOption[i] ?? undefined}
                rightSection={
                  <Text fz={10} c="dimmed">
                    {L.characters(o.title.length, titleMax)}
                  </Text>
                }
                rightSectionWidth={48}
              />
              {type === 'list' && (
                <TextInput
                  aria-label={`${labels.departments.description} ${i + 1}`}
                  placeholder={labels.departments.description}
                  size="xs"
                  value={o.description ?? ''}
                  onChange={(e) => {
                    const description = e.currentTarget.value;
                    update(d.options.map((x) => (x.id === o.id ? { ...x, description } : x)));
                  }}
                  error={
                    (o.description ?? '').length > INTERACTIVE_LIMITS.rowDescription
                      ? messages.flowCharacterLimit
                      : undefined
                  }
                />
              )}
            </Stack>
            <ActionIcon
              variant="subtle"
              color="gray"
              mt={4}
              aria-label={L.removeOption(i + 1)}
              disabled={d.options.length <= 1}
              onClick={() => update(d.options.filter((x) => x.id !== o.id))}
            >
              <IconTrash size={16} aria-hidden />
            </ActionIcon>
          </Group>
        ))}
        <Button
          variant="light"
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={add}
          data-full={d.options.length >= max || undefined}
        >
          {L.addOption}
        </Button>
        {addError && (
          <Text c="red" fz="sm" role="alert">
            {addError}
          </Text>
        )}
      </Stack>
    </>
  );
}

function RandomizerFields({ node, set }: Edit<'randomizer'>) {
  const d = node.data;
  const total = d.branches.reduce((s, b) => s + (Number.isFinite(b.percent) ? b.percent : 0), 0);
  return (
    <Stack gap="xs">
      <Text fw={500} fz="sm">
        {L.branches}
      </Text>
      {d.branches.map((b, i) => (
        <Group key={b.id} gap="xs" align="flex-start" wrap="nowrap">
          <NumberInput
            aria-label={`${L.percentage} ${i + 1}`}
            style={{ flex: 1 }}
            value={b.percent}
            suffix="%"
            allowDecimal={false}
            onChange={(v) =>
              set({
                branches: d.branches.map((x) =>
                  x.id === b.id ? { ...x, percent: typeof v === 'number' ? v : Number.NaN } : x,
                ),
              })
            }
            error={percentProblem(b.percent) ?? undefined}
          />
          <ActionIcon
            variant="subtle"
            color="gray"
            mt={4}
            aria-label={L.removeBranch(i + 1)}
            disabled={d.branches.length <= 1}
            onClick={() => set({ branches: d.branches.filter((x) => x.id !== b.id) })}
          >
            <IconTrash size={16} aria-hidden />
          </ActionIcon>
        </Group>
      ))}
      <Text fz="sm" c={total === 100 ? 'dimmed' : 'red'}>
        {L.total(total)}
        {total !== 100 && ` · ${messages.flowPercentTotal}`}
      </Text>
      <Button
        variant="light"
        leftSection={<IconPlus size={16} aria-hidden />}
        disabled={d.branches.length >= 20}
        onClick={() =>
          set({ branches: [...d.branches, { id: newId('br'), percent: Math.max(1, 100 - total) }] })
        }
      >
        {L.addBranch}
      </Button>
    </Stack>
  );
}

function TagFields({
  node,
  set,
}: {
  node: FlowNode<'add_tag'> | FlowNode<'remove_tag'> | FlowNode<'tag_condition'>;
  set(d: unknown): void;
}) {
  const tags = useTags();
  const data = (tags.data ?? []).map((t) => ({ value: t._id, label: t.name }));
  return (
    <>
      <MultiSelect
        label={labels.common.tags}
        placeholder={messages.chooseTags}
        data={data}
        value={node.data.tags}
        searchable
        onChange={(ids) => set({ ...node.data, tags: ids } as never)}
      />
      {node.type === 'tag_condition' && (
        <Stack gap={4}>
          <Text fz="sm" fw={500}>
            {L.condition}
          </Text>
          <SegmentedControl
            data={[
              { value: 'any', label: L.anyTag },
              { value: 'all', label: L.allTags },
            ]}
            value={node.data.mode}
            onChange={(mode) => set({ ...node.data, mode: mode as 'any' | 'all' })}
          />
        </Stack>
      )}
    </>
  );
}

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;

function HoursFields({ node, set }: Edit<'opening_hours'>) {
  const d = node.data;
  const zones = useMemo(() => {
    try {
      return Intl.supportedValuesOf('timeZone');
    } catch {
      return ['America/Sao_Paulo'];
    }
  }, []);
  const dayOf = (day: number) => d.days.find((x) => x.day === day);
  const setDay = (day: number, ranges: { start: string; end: string }[] | null) => {
    const rest = d.days.filter((x) => x.day !== day);
    set({
      ...d,
      days: (ranges ? [...rest, { day, ranges }] : rest).sort((a, b) => a.day - b.day),
    });
  };
  return (
    <>
      <Select
        label={L.timeZone}
        placeholder={L.accountTimeZone}
        data={zones}
        value={d.time_zone || null}
        searchable
        clearable
        limit={50}
        onChange={(z) => set({ ...d, time_zone: z ?? '' })}
      />
      <Text fz="sm" c="dimmed">
        {L.outsideHoursHint}
      </Text>
      {L.weekDays.map((dayName, day) => {
        const entry = dayOf(day);
        return (
          <Stack key={dayName} gap={4}>
            <Checkbox
              label={dayName}
              checked={Boolean(entry)}
              onChange={(e) =>
                setDay(day, e.currentTarget.checked ? [{ start: '08:00', end: '18:00' }] : null)
              }
            />
            {entry?.ranges.map((r, i) => {
              // One range's start or end changes; the day's other ranges stay.
              const setRange = (at: number, change: Partial<typeof r>) =>
                setDay(
                  day,
                  entry.ranges.map((x, j) => (j === at ? { ...x, ...change } : x)),
                );
              const bad = !HHMM.test(r.start) || !HHMM.test(r.end) || r.end.localeCompare(r.start) <= 0;
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: ranges have no id; their order is their identity
                <Group key={i} gap="xs" wrap="nowrap" align="flex-start" pl="lg">
                  <TextInput
                    type="time"
                    aria-label={`${labels.history.start} ${dayName} ${i + 1}`}
                    value={r.start}
                    onChange={(e) => setRange(i, { start: e.currentTarget.value })}
                    style={{ flex: 1 }}
                    error={bad ? messages.flowHoursInvalid : undefined}
                  />
                  <TextInput
                    type="time"
                    aria-label={`${labels.history.end} ${dayName} ${i + 1}`}
                    value={r.end}
                    onChange={(e) => setRange(i, { end: e.currentTarget.value })}
                    style={{ flex: 1 }}
                  />
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    mt={4}
                    aria-label={L.removeHours(dayName, i + 1)}
                    onClick={() => {
                      const ranges = entry.ranges.filter((_, j) => j !== i);
                      setDay(day, ranges.length ? ranges : null);
                    }}
                  >
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                </Group>
              );
            })}
            {entry && entry.ranges.length < 10 && (
              <Button
                variant="subtle"
                size="compact-sm"
                ml="lg"
                w="fit-content"
                leftSection={<IconPlus size={14} aria-hidden />}
                onClick={() => setDay(day, [...entry.ranges, { start: '13:00', end: '18:00' }])}
                aria-label={L.addHours(dayName)}
              >
                {L.addHours(dayName)}
              </Button>
            )}
          </Stack>
        );
      })}
    </>
  );
}

function HttpFields({ node, set }: Edit<'http'>) {
  const d = node.data;
  const urlBad = d.url !== '' && nodeProblem({ ...node, data: { ...d, mappings: [] } }) !== null;
  return (
    <>
      <Text fz="sm" c="dimmed">
        {L.httpHint}
      </Text>
      <SegmentedControl
        aria-label={L.method}
        data={['GET', 'POST']}
        value={d.method}
        onChange={(method) => set({ ...d, method: method as 'GET' | 'POST' })}
      />
      <TextInput
        label={L.url}
        placeholder={L.urlExample}
        value={d.url}
        onChange={(e) => set({ ...d, url: e.currentTarget.value })}
        error={urlBad ? messages.flowUrlInvalid : undefined}
        inputMode="url"
      />
      <NumberInput
        label={L.timeLimitSeconds}
        value={d.timeout_seconds}
        min={1}
        max={30}
        allowDecimal={false}
        clampBehavior="strict"
        onChange={(v) => set({ ...d, timeout_seconds: typeof v === 'number' ? v : 10 })}
      />
      <Stack gap="xs">
        <Text fw={500} fz="sm">
          {L.answerFields}
        </Text>
        {d.mappings.map((m, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: mappings have no id; their order is their identity
          <Group key={i} gap="xs" wrap="nowrap" align="flex-start">
            <TextInput
              aria-label={`${L.path} ${i + 1}`}
              placeholder={L.path}
              value={m.path}
              style={{ flex: 1 }}
              onChange={(e) => {
                const path = e.currentTarget.value;
                set({ ...d, mappings: d.mappings.map((x, j) => (j === i ? { ...x, path } : x)) });
              }}
            />
            <TextInput
              aria-label={`${L.variable} ${i + 1}`}
              placeholder={L.variable}
              value={m.variable}
              style={{ flex: 1 }}
              onChange={(e) => {
                const variable = e.currentTarget.value;
                set({ ...d, mappings: d.mappings.map((x, j) => (j === i ? { ...x, variable } : x)) });
              }}
              error={
                m.variable && !/^[A-Za-z0-9_]{1,64}$/.test(m.variable)
                  ? messages.flowVariableInvalid
                  : undefined
              }
            />
            <ActionIcon
              variant="subtle"
              color="gray"
              mt={4}
              aria-label={L.removeField(i + 1)}
              onClick={() => set({ ...d, mappings: d.mappings.filter((_, j) => j !== i) })}
            >
              <IconTrash size={16} aria-hidden />
            </ActionIcon>
          </Group>
        ))}
        <Button
          variant="light"
          leftSection={<IconPlus size={16} aria-hidden />}
          disabled={d.mappings.length >= 50}
          onClick={() => set({ ...d, mappings: [...d.mappings, { path: '', variable: '' }] })}
        >
          {messages.addField}
        </Button>
      </Stack>
    </>
  );
}

const flowsQuery = callQuery('get-flows-by-user');
const chatbotsQuery = callQuery('get-chatbots-by-user');

function RedirectFields({ node, set, flowId }: Edit<'redirect'> & { flowId: string }) {
  const d = node.data;
  const departments = useDepartments();
  const flows = useQuery({ ...flowsQuery, enabled: d.to === 'flow' });
  const chatbots = useQuery({ ...chatbotsQuery, enabled: d.to === 'ai_chatbot' });
  const chatbotChoices = chatbotOptions(chatbots.data);
  const flowOptions = (flows.data ?? [])
    .filter((f) => f._id !== flowId)
    .map((f) => ({ value: f._id, label: f.name }));
  return (
    <>
      <Select
        label={L.redirectTo}
        data={(['human', 'ai_chatbot', 'flow'] as const).map((v) => ({ value: v, label: L.targets[v] }))}
        value={d.to}
        allowDeselect={false}
        onChange={(to) => to && to !== d.to && set({ to: to as typeof d.to, value: null })}
      />
      {d.to === 'human' && (
        <Select
          label={labels.common.department}
          data={(departments.data ?? []).map((x) => ({ value: x._id, label: x.name }))}
          value={d.value}
          searchable
          onChange={(value) => set({ ...d, value })}
        />
      )}
      {d.to === 'ai_chatbot' &&
        (chatbots.isSuccess && chatbotChoices.length === 0 ? (
          <Alert color="gray" variant="light" p="xs">
            {L.noAiChatbot}
          </Alert>
        ) : (
          <Select
            label={labels.common.chatbot}
            data={chatbotChoices}
            value={d.value}
            searchable
            onChange={(value) => set({ ...d, value })}
          />
        ))}
      {d.to === 'flow' &&
        (flows.isSuccess && flowOptions.length === 0 ? (
          <Alert color="gray" variant="light" p="xs">
            {L.noOtherFlow}
          </Alert>
        ) : (
          <Select
            label={labels.common.flow}
            data={flowOptions}
            value={d.value}
            searchable
            onChange={(value) => set({ ...d, value })}
          />
        ))}
    </>
  );
}
