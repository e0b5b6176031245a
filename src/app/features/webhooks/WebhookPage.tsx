// /webhooks/:webhookId (spec 3 §2.13, §4 Webhook status, §5 Webhook save): the webhook's URL with a copy button,
// its name, sending chip, the flow (unofficial chip) or the fixed-content template with its button flows and
// conversation rule (official chip), its status; 'Dados do webhook' (Exemplo, 'Receber evento teste', the JSON
// parsed after a 1.2 s pause) and 'Campos Mapeados' (telefone first and fixed; each field joins the values of
// its JSON paths). The shared rule (webhookSaveProblems) checks a save as the server will.
import {
  ActionIcon,
  Box,
  Button,
  Center,
  CopyButton,
  Group,
  Loader,
  MultiSelect,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import {
  IconArrowLeft,
  IconBroadcast,
  IconCheck,
  IconCopy,
  IconFileCode,
  IconPlayerStop,
  IconPlus,
  IconTrash,
} from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams } from '@tanstack/react-router';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { errorMessage } from '@/app/lib/api';
import { flowOptions, useChips, useFlows } from '@/app/lib/lists';
import { notifyError, notifySuccess } from '@/app/lib/notify';
import { FormError } from '@/app/ui/FormParts';
import { PageHeader } from '@/app/ui/PageHeader';
import { useFormError } from '@/app/ui/use-form-error';
import { PlanGate } from '@/app/widgets/PlanGate';
import { ButtonFlows, ConversationRuleFields, TemplatePreview } from '@/app/widgets/template/TemplateParts';
import { payloadsFor } from '@/app/widgets/template/template-parts';
import { PHONE_FIELD, WEBHOOK_STATUSES, type Webhook, type WebhookStatus } from '@/shared/contract/webhooks';
import { labels, messages } from '@/shared/messages';
import { webhookLabels as L, webhookMessages as M, WEBHOOK_EXAMPLE } from '@/shared/messages-webhooks';
import { listPaths, parseSample, webhookSaveProblems, withExamples } from '@/shared/rules/webhook-mapping';
import { ApiKeyNotice } from './WebhooksPage';
import {
  changesOf,
  draftOf,
  useSaveWebhook,
  useTestEvent,
  useWebhookTemplates,
  type WebhookDraft,
  webhookQuery,
} from './webhook-data';

/** The pause after typing before the JSON is read (spec 3 §5). */
export const PARSE_DELAY_MS = 1200;
const COPIED_MS = 1500;

const FIELDS = [
  'name',
  'chip',
  'flow',
  'template',
  'status',
  'conversation_creation_rule',
  'redirect',
  'chatbot',
  'department',
  'data',
] as const;
type Field = (typeof FIELDS)[number] | `fields.${number}`;
const fieldKey = (i: number) => `fields.${i}` as const;

const STATUS_OPTIONS = WEBHOOK_STATUSES.map((value) => ({ value, label: L.statusLabels[value] }));

export function WebhookPage() {
  return (
    <PlanGate title={L.webhook} plan="integrations">
      <WebhookLoader />
    </PlanGate>
  );
}

function WebhookLoader() {
  const { webhookId = '' } = useParams({ strict: false }) as { webhookId?: string };
  const navigate = useNavigate();
  const client = useQueryClient();
  const webhook = useQuery({ ...webhookQuery(webhookId), staleTime: 0 });
  useEffect(() => {
    if (!webhook.isError) return;
    notifyError(webhook.error);
    void navigate({ href: '/webhooks', replace: true });
  }, [webhook.isError, webhook.error, navigate]);
  if (!webhook.data)
    return (
      <Center py="xl" aria-busy="true">
        <Loader aria-label={labels.common.loading} />
      </Center>
    );
  // A new key after a save or Cancelar: the form starts again from what the server holds.
  return (
    <WebhookForm
      key={`${webhook.data._id}-${webhook.dataUpdatedAt}`}
      webhook={webhook.data}
      reload={() => void webhook.refetch()}
      // The saved webhook is the page's at once: a click right after the toast already sees its new status.
      saved={(w) => client.setQueryData(webhookQuery(webhookId).queryKey, w)}
    />
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p={{ base: 'sm', sm: 'md' }} radius="md">
      <Stack gap="sm">
        <Title order={2} fz="h4">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

function WebhookForm({
  webhook,
  reload,
  saved,
}: {
  webhook: Webhook;
  reload(): void;
  saved(webhook: Webhook): void;
}) {
  const navigate = useNavigate();
  const [draft, setDraft] = useState<WebhookDraft>(() => draftOf(webhook));
  const { formRef, errorOf, show, clear, reset } = useFormError<Field>([
    ...FIELDS,
    // A button's flow refused by the server has no field of its own: its message shows under the form.
    ...draft.fields.map((_, i) => fieldKey(i)),
  ]);
  const chips = useChips();
  const flows = useFlows();
  const save = useSaveWebhook();

  // The JSON as last read: undefined while the text is not JSON (the example values are then empty).
  const [sample, setSample] = useState<unknown>(() => parseSample(webhook.data));
  const [typedProblem, setTypedProblem] = useState<string | null>(null);
  const readSample = (text: string) => {
    const parsed = parseSample(text);
    setSample(parsed);
    setTypedProblem(parsed === undefined ? M.typedNotJson : null);
    setDraft((d) => ({ ...d, data: text, fields: withExamples(d.fields, parsed) }));
  };
  const [typed, setTyped] = useState<string | null>(null);
  useEffect(() => {
    if (typed === null) return;
    const timer = setTimeout(() => {
      const parsed = parseSample(typed);
      setSample(parsed);
      setTypedProblem(parsed === undefined ? M.typedNotJson : null);
      setDraft((d) => ({ ...d, fields: withExamples(d.fields, parsed) }));
    }, PARSE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const paths = useMemo(() => (sample === undefined ? [] : listPaths(sample)), [sample]);

  const fill = (data: unknown) => {
    const text = JSON.stringify(data, null, 2);
    clear('data');
    setTyped(null);
    readSample(text);
  };
  const test = useTestEvent(webhook._id, {
    onEvent: (data) => {
      fill(data);
      notifySuccess(M.testReceived);
    },
    onTimeout: () => show({ field: 'data', message: M.testTimeout }),
  });
  const waitForEvent = () => {
    // The status is what is wrong, not the JSON (a valid JSON must not turn red).
    if (webhook.status !== 'test') return show({ field: 'status', message: M.mustBeTest });
    clear('data');
    test.start();
  };

  // Without PUBLIC_URL the server gives a path: the address is this page's own, as on the /api page.
  const url = webhook.url.startsWith('/') ? `${window.location.origin}${webhook.url}` : webhook.url;
  const chipList = chips.data ?? [];
  const chip = chipList.find((c) => c._id === draft.chip) ?? null;
  const official = chip?.official ?? webhook.chip?.official ?? false;
  const connected = chipList.filter((c) => !c.filed && c.status === 'open');
  const chipOptions = connected.map((c) => ({ value: c._id, label: c.name }));
  // The saved chip stays listed even when it is not connected now.
  if (webhook.chip && !chipOptions.some((o) => o.value === webhook.chip?._id))
    chipOptions.unshift({ value: webhook.chip._id, label: webhook.chip.name });
  const templates = useWebhookTemplates(draft.chip, official);
  const templateKey = (t: { name: string; language: string }) => `${t.name}|${t.language}`;
  const templateOptions = (templates.data ?? []).map((t) => ({ value: templateKey(t), label: t.name }));
  if (draft.template && !templateOptions.some((o) => o.value === templateKey(draft.template as never)))
    templateOptions.unshift({ value: templateKey(draft.template), label: draft.template.name });

  let templateHint: string = L.templateHelp;
  if (templates.isPending && templates.fetchStatus !== 'idle') templateHint = L.loadingTemplates;
  else if (templates.error) templateHint = errorMessage(templates.error);
  else if (templates.data && templates.data.length === 0) templateHint = L.noTemplate;

  const set = <K extends keyof WebhookDraft>(key: K, value: WebhookDraft[K], field?: Field) => {
    setDraft((d) => ({ ...d, [key]: value }));
    if (field) clear(field);
  };
  const setField = (at: number, change: Partial<WebhookDraft['fields'][number]>) => {
    setDraft((d) => ({
      ...d,
      fields: withExamples(
        d.fields.map((f, i) => (i === at ? { ...f, ...change } : f)),
        sample,
      ),
    }));
    clear(fieldKey(at));
  };

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const problem = webhookSaveProblems(draft)[0];
    if (problem) return show(problem);
    reset();
    save.mutate(
      { _id: webhook._id, ...changesOf(draft) },
      {
        onSuccess: saved,
        onError: (err) =>
          show({
            field: (err as { field?: string }).field ?? 'form',
            message: errorMessage(err),
          }),
      },
    );
  }

  // The options show the path; the dropdown adds its example value (the chosen pills stay short).
  const examples = new Map(paths.map((p) => [p.path, p.example]));
  const optionsFor = (origin: readonly string[]) => [
    ...paths.map((p) => p.path),
    // A path chosen from an earlier sample stays listed.
    ...origin.filter((o) => !examples.has(o)),
  ];
  const renderPath = ({ option }: { option: { value: string } }) => {
    const example = examples.get(option.value);
    return (
      <Stack gap={0} style={{ minWidth: 0 }}>
        <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
          {option.value}
        </Text>
        {example && (
          <Text fz="xs" c="dimmed" lineClamp={1}>
            {example}
          </Text>
        )}
      </Stack>
    );
  };

  return (
    <form ref={formRef} onSubmit={submit} noValidate>
      <PageHeader title={draft.name.trim() || L.webhook}>
        <Tooltip label={messages.back} withArrow>
          <ActionIcon
            variant="default"
            size="lg"
            aria-label={messages.back}
            onClick={() => void navigate({ href: '/webhooks' })}
          >
            <IconArrowLeft size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </PageHeader>
      <ApiKeyNotice />
      <Stack gap="md">
        <Section title={L.webhook}>
          <TextInput
            label={L.webhookUrl}
            value={url}
            readOnly
            styles={{ input: { fontFamily: 'monospace' } }}
            rightSection={
              <CopyButton value={url} timeout={COPIED_MS}>
                {({ copied, copy }) => (
                  <Tooltip label={copied ? L.copied : L.copy} withArrow>
                    <ActionIcon
                      variant="subtle"
                      color={copied ? 'teal' : 'gray'}
                      onClick={copy}
                      aria-label={copied ? L.copied : L.copy}
                    >
                      {copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
                    </ActionIcon>
                  </Tooltip>
                )}
              </CopyButton>
            }
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              label={L.webhookName}
              value={draft.name}
              onChange={(e) => set('name', e.currentTarget.value, 'name')}
              error={errorOf('name')}
            />
            <Select
              label={labels.common.status}
              data={STATUS_OPTIONS}
              value={draft.status}
              onChange={(v) => v && set('status', v as WebhookStatus, 'status')}
              allowDeselect={false}
              error={errorOf('status')}
              comboboxProps={{ withinPortal: true }}
            />
          </SimpleGrid>
          <Select
            label={labels.schedule.sendingChip}
            description={chips.data && connected.length === 0 ? L.noNumbersConnected : undefined}
            placeholder={labels.common.chooseChip}
            data={chipOptions}
            value={draft.chip}
            onChange={(v) => {
              // Another number has other templates (spec 3 §4: changing the chip reloads them).
              if (v !== draft.chip)
                setDraft((d) => ({ ...d, chip: v, template: null, template_payloads: [] }));
              clear('chip');
              clear('template');
            }}
            error={errorOf('chip')}
            comboboxProps={{ withinPortal: true }}
          />
          {draft.chip && !official && (
            <Select
              label={labels.common.flow}
              placeholder={messages.chooseFlow}
              data={flowOptions(flows.data)}
              value={draft.flow}
              onChange={(v) => set('flow', v, 'flow')}
              nothingFoundMessage={labels.chips.noFlowRegistered}
              error={errorOf('flow')}
              clearable
              comboboxProps={{ withinPortal: true }}
            />
          )}
          {draft.chip && official && (
            <>
              <Select
                label={labels.common.messageTemplate}
                description={templateHint}
                placeholder={labels.common.chooseTemplate}
                data={templateOptions}
                value={draft.template ? templateKey(draft.template) : null}
                onChange={(key) => {
                  const chosen = templates.data?.find((t) => templateKey(t) === key) ?? null;
                  // Another template: its own quick-reply buttons (spec 3 §4).
                  setDraft((d) => ({
                    ...d,
                    template: chosen,
                    template_payloads: chosen ? payloadsFor(chosen.components, d.template_payloads) : [],
                  }));
                  clear('template');
                }}
                error={errorOf('template')}
                searchable
                comboboxProps={{ withinPortal: true }}
              />
              {draft.template && <TemplatePreview components={draft.template.components} />}
              <ButtonFlows
                payloads={draft.template_payloads}
                onChange={(payloads) => set('template_payloads', payloads)}
              />
              <ConversationRuleFields
                draft={draft}
                onChange={(patch, stale) => {
                  setDraft((d) => ({
                    ...d,
                    ...patch,
                    conversation_creation_rule:
                      patch.conversation_creation_rule ?? d.conversation_creation_rule,
                  }));
                  for (const f of stale) clear(f);
                }}
                errorOf={errorOf}
              />
            </>
          )}
        </Section>

        <Section title={L.webhookData}>
          <Group gap="xs">
            <Button
              variant="light"
              leftSection={<IconFileCode size={18} aria-hidden />}
              onClick={() => fill(WEBHOOK_EXAMPLE)}
              disabled={test.waiting}
            >
              {L.example}
            </Button>
            {test.waiting ? (
              <>
                <Group gap={6} role="status">
                  <Loader size="xs" aria-hidden />
                  <Text fz="sm">{L.waitingEvent}</Text>
                </Group>
                <Button
                  variant="default"
                  leftSection={<IconPlayerStop size={18} aria-hidden />}
                  onClick={test.stop}
                >
                  {messages.stop}
                </Button>
              </>
            ) : (
              <Button
                variant="light"
                leftSection={<IconBroadcast size={18} aria-hidden />}
                onClick={waitForEvent}
              >
                {L.receiveTestEvent}
              </Button>
            )}
          </Group>
          <Textarea
            label={L.jsonReceived}
            description={L.jsonHelp}
            value={draft.data}
            onChange={(e) => {
              const text = e.currentTarget.value;
              setDraft((d) => ({ ...d, data: text }));
              setTyped(text);
              clear('data');
            }}
            error={errorOf('data') ?? typedProblem}
            autosize
            minRows={6}
            maxRows={18}
            spellCheck={false}
            styles={{ input: { fontFamily: 'monospace', fontSize: 13 } }}
          />
        </Section>

        <Section title={L.mappedFields}>
          <Text fz="sm" c="dimmed">
            {L.fieldsHelp}
          </Text>
          {draft.fields.map((f, at) => {
            const fixed = at === 0;
            // telefone without paths: the message belongs under its paths.
            const originError = errorOf(fieldKey(at)) === M.phoneNotMapped ? M.phoneNotMapped : null;
            return (
              <Paper
                key={fixed ? PHONE_FIELD : `field-${at}`}
                withBorder
                p="xs"
                radius="md"
                role="group"
                aria-label={f.name || L.fieldName}
              >
                <Group align="flex-start" gap="xs" wrap="nowrap">
                  <SimpleGrid cols={{ base: 1, md: 3 }} spacing="xs" style={{ flex: 1, minWidth: 0 }}>
                    <TextInput
                      label={L.fieldName}
                      value={f.name}
                      readOnly={fixed}
                      disabled={fixed}
                      onChange={(e) => setField(at, { name: e.currentTarget.value })}
                      error={originError ? null : errorOf(fieldKey(at))}
                    />
                    <MultiSelect
                      label={L.sourceFields}
                      placeholder={f.origin.length ? undefined : L.chooseFields}
                      data={optionsFor(f.origin)}
                      renderOption={renderPath}
                      value={f.origin}
                      error={originError}
                      onChange={(origin) => setField(at, { origin })}
                      searchable
                      clearable
                      comboboxProps={{ withinPortal: true }}
                    />
                    <TextInput label={L.exampleValue} value={f.value} readOnly variant="filled" />
                  </SimpleGrid>
                  {/* telefone's place for the remove button keeps the columns of every field aligned */}
                  {fixed && <Box w={28} visibleFrom="md" style={{ flexShrink: 0 }} />}
                  {!fixed && (
                    <Tooltip label={L.removeField(f.name)} withArrow>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        mt={26}
                        aria-label={L.removeField(f.name)}
                        onClick={() => {
                          setDraft((d) => ({ ...d, fields: d.fields.filter((_, i) => i !== at) }));
                          reset();
                        }}
                      >
                        <IconTrash size={18} aria-hidden />
                      </ActionIcon>
                    </Tooltip>
                  )}
                </Group>
              </Paper>
            );
          })}
          <Group>
            <Button
              variant="light"
              leftSection={<IconPlus size={18} aria-hidden />}
              onClick={() =>
                setDraft((d) => ({ ...d, fields: [...d.fields, { name: '', origin: [], value: '' }] }))
              }
            >
              {messages.addField}
            </Button>
          </Group>
        </Section>
        <FormError message={errorOf('form')} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={reload}>
            {labels.common.cancel}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {labels.common.save}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
