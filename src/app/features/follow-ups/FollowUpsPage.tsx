// /auto-follow-ups (spec 3 §2.12, §3 Auto follow-up per chip, §5, §9): one card per chip with its setting:
// switched on or off, the conversation types it serves, the hours window (0 to 23, the account's time zone)
// and up to three messages, each with its text and its time after the previous one. Saved per chip with
// 'Configurações atualizadas com sucesso!'; the same rule as the server's checks before the call. Plan:
// max_channels above 1 (PlanGate 'integrations'); access area 'follow-ups' (the route's guard).
import {
  Alert,
  Badge,
  Card,
  Checkbox,
  Fieldset,
  Group,
  Loader,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { errorMessage } from '@/app/lib/api';
import { useCallMutation } from '@/app/lib/mutation';
import { callQuery } from '@/app/lib/query';
import { FormActions, FormError } from '@/app/ui/FormParts';
import { SaibaMais } from '@/app/ui/HelpDialog';
import { PageHeader } from '@/app/ui/PageHeader';
import { useFormError } from '@/app/ui/use-form-error';
import { PlanGate } from '@/app/widgets/PlanGate';
import type { FollowUpSetting } from '@/shared/contract/follow-ups';
import { labels, messages } from '@/shared/messages';
import {
  FOLLOW_UP_TYPE_LABELS,
  FOLLOW_UP_UNIT_LABELS,
  followUpMessages,
  followUpLabels as L,
} from '@/shared/messages-follow-ups';
import {
  FOLLOW_UP_MESSAGE_KEYS,
  FOLLOW_UP_TYPES,
  FOLLOW_UP_UNITS,
  type FollowUpField,
  type FollowUpMessage,
  type FollowUpSettingInput,
  type FollowUpType,
  type FollowUpUnit,
  MAX_FOLLOW_UP_TIME,
  prepareFollowUpSetting,
} from '@/shared/rules/follow-up';

const HELP = { id: 'auto-follow-ups', title: labels.team.automaticFollowUps, text: L.helpText };

const followUpsQuery = callQuery('get-follow-ups');

const FIELDS: readonly FollowUpField[] = [
  'types',
  'start_time',
  'end_time',
  'messages',
  ...FOLLOW_UP_MESSAGE_KEYS.flatMap((k) => [`${k}.text`, `${k}.time`] as const),
];

const HOURS = Array.from({ length: 24 }, (_, h) => ({ value: String(h), label: L.hour(h) }));
const UNITS = FOLLOW_UP_UNITS.map((u) => ({ value: u, label: FOLLOW_UP_UNIT_LABELS[u] }));

export function FollowUpsPage() {
  return (
    <PlanGate plan="integrations" title={labels.team.automaticFollowUps}>
      <FollowUps />
    </PlanGate>
  );
}

function FollowUps() {
  const settings = useQuery(followUpsQuery);
  return (
    <>
      <PageHeader title={labels.team.automaticFollowUps}>
        <SaibaMais topic={HELP} />
      </PageHeader>
      <Stack gap="md">
        <Text c="dimmed" fz="sm">
          {L.intro}
        </Text>
        {settings.isPending ? (
          <Loader aria-hidden />
        ) : settings.isError ? (
          <Alert color="red" role="alert">
            {errorMessage(settings.error)}
          </Alert>
        ) : settings.data.length === 0 ? (
          <Text>{L.noChips}</Text>
        ) : (
          settings.data.map((s) => <ChipFollowUp key={s.chip} setting={s} />)
        )}
      </Stack>
    </>
  );
}

const inputOf = (s: FollowUpSetting): FollowUpSettingInput => ({
  enabled: s.enabled,
  types: s.types,
  start_time: s.start_time,
  end_time: s.end_time,
  message_1: s.message_1,
  message_2: s.message_2,
  message_3: s.message_3,
});

/** One chip's card: its own form and its own Salvar. */
function ChipFollowUp({ setting }: { setting: FollowUpSetting }) {
  const [form, setForm] = useState<FollowUpSettingInput>(() => inputOf(setting));
  const { formRef, errorOf, show, clear, reset, afterSave } = useFormError(FIELDS);
  const save = useCallMutation('update-follow-up', {
    successMessage: followUpMessages.saved,
    invalidates: [followUpsQuery.queryKey],
  });
  const titleId = `follow-up-${setting.chip}`;

  const change = (patch: Partial<FollowUpSettingInput>, field?: FollowUpField) => {
    setForm((f) => ({ ...f, ...patch }));
    if (field) clear(field);
  };
  const changeMessage = (key: (typeof FOLLOW_UP_MESSAGE_KEYS)[number], patch: Partial<FollowUpMessage>) => {
    setForm((f) => ({ ...f, [key]: { ...f[key], ...patch } }));
    clear(`${key}.text`);
    clear(`${key}.time`);
    clear('messages');
  };

  function submit(e: FormEvent) {
    e.preventDefault();
    const r = prepareFollowUpSetting(form);
    if (!r.ok) return show(r.error);
    reset();
    save.mutate(
      { chip: setting.chip, ...r.setting },
      afterSave(() => undefined),
    );
  }

  return (
    <Card withBorder radius="md" padding="md" component="section" aria-labelledby={titleId}>
      <form ref={formRef} onSubmit={submit} noValidate>
        <Stack gap="md">
          <Group justify="space-between" wrap="nowrap" gap="sm">
            <Title order={2} fz="h4" id={titleId} style={{ overflowWrap: 'anywhere' }}>
              {setting.chip_name}
            </Title>
            <Badge color={setting.enabled ? 'green' : 'gray'} variant="light" style={{ flexShrink: 0 }}>
              {setting.enabled ? L.active : messages.disabled}
            </Badge>
          </Group>
          <Switch
            label={L.enabled}
            checked={form.enabled}
            onChange={(e) => change({ enabled: e.currentTarget.checked }, 'types')}
          />
          <Checkbox.Group
            label={L.types}
            description={L.typesHint}
            value={form.types}
            onChange={(v) => change({ types: v as FollowUpType[] }, 'types')}
            error={errorOf('types')}
          >
            <Group gap="md" mt={6}>
              {FOLLOW_UP_TYPES.map((t) => (
                <Checkbox key={t} value={t} label={FOLLOW_UP_TYPE_LABELS[t]} />
              ))}
            </Group>
          </Checkbox.Group>
          <Fieldset
            legend={
              <Text span fz="sm" fw={500}>
                {L.window}
              </Text>
            }
            variant="unstyled"
            aria-label={L.window}
          >
            <Text c="dimmed" fz="xs" mb={6}>
              {L.windowHint}
            </Text>
            <SimpleGrid cols={2} spacing="sm">
              <Select
                label={L.startTime}
                data={HOURS}
                value={String(form.start_time)}
                onChange={(v) => v !== null && change({ start_time: Number(v) }, 'start_time')}
                allowDeselect={false}
                error={errorOf('start_time')}
              />
              <Select
                label={L.endTime}
                data={HOURS}
                value={String(form.end_time)}
                onChange={(v) => v !== null && change({ end_time: Number(v) }, 'end_time')}
                allowDeselect={false}
                error={errorOf('end_time')}
              />
            </SimpleGrid>
          </Fieldset>
          <SimpleGrid cols={{ base: 1, md: 3 }} spacing="sm">
            {FOLLOW_UP_MESSAGE_KEYS.map((key, i) => (
              <MessageBlock
                key={key}
                n={i + 1}
                message={form[key]}
                onChange={(patch) => changeMessage(key, patch)}
                textError={errorOf(`${key}.text`)}
                timeError={errorOf(`${key}.time`)}
              />
            ))}
          </SimpleGrid>
          <FormError message={errorOf('messages') ?? errorOf('form')} />
          <FormActions loading={save.isPending} label={labels.common.save} />
        </Stack>
      </form>
    </Card>
  );
}

function MessageBlock({
  n,
  message,
  onChange,
  textError,
  timeError,
}: {
  n: number;
  message: FollowUpMessage;
  onChange(patch: Partial<FollowUpMessage>): void;
  textError: string | null;
  timeError: string | null;
}) {
  return (
    <Fieldset legend={L.message(n)} radius="md" aria-label={L.message(n)}>
      <Stack gap="xs">
        <Switch
          label={L.messageEnabled}
          checked={message.enabled}
          onChange={(e) => onChange({ enabled: e.currentTarget.checked })}
        />
        <Textarea
          label={labels.schedule.text}
          placeholder={L.textPlaceholder}
          value={message.text}
          onChange={(e) => onChange({ text: e.currentTarget.value })}
          autosize
          minRows={2}
          maxRows={6}
          maxLength={4096}
          error={textError}
        />
        <Group gap="xs" grow align="flex-start" wrap="nowrap">
          <NumberInput
            label={L.time}
            value={message.time}
            onChange={(v) => onChange({ time: typeof v === 'number' ? v : Number(v) || 0 })}
            min={1}
            max={MAX_FOLLOW_UP_TIME}
            // Not clamped on blur: a 0 is refused with the rule's message, never saved as 1 unseen.
            clampBehavior="none"
            allowDecimal={false}
            allowNegative={false}
            error={timeError}
          />
          <Select
            label={messages.unit}
            data={UNITS}
            value={message.unit}
            onChange={(v) => v && onChange({ unit: v as FollowUpUnit })}
            allowDeselect={false}
          />
        </Group>
        <Text c="dimmed" fz="xs">
          {n === 1 ? L.timingFirst : L.timingNext(n - 1)}
        </Text>
      </Stack>
    </Fieldset>
  );
}
