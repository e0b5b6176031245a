// The shared scheduling dialog (spec 2 §2.3 'Agendar mensagem', §2.4, §5 Scheduled send): opened from
// /agendamento (new or edit) and from a conversation's menu (chip and number filled in). The same rule as
// the server checks each field, in the spec's order, and shows its message on that field.
import '@mantine/dates/styles.css';
import { Group, SegmentedControl, Select, Textarea, TextInput } from '@mantine/core';
import dayjs from 'dayjs';
import { useState } from 'react';
import { errorMessage } from '@/app/lib/api';
import { flowOptions, useChips, useFlows } from '@/app/lib/lists';
import { Dialog } from '@/app/ui/Dialog';
import { DialogForm } from '@/app/ui/FormParts';
import { FutureDateTimePicker } from '@/app/ui/FutureDateTimePicker';
import { useFormError } from '@/app/ui/use-form-error';
import { useItemId } from '@/app/ui/use-item-id';
import { DEFAULT_COUNTRY_CODE } from '@/shared/constants';
import type { ScheduledMessage } from '@/shared/contract/scheduled-messages';
import { labels, messages } from '@/shared/messages';
import { prepareScheduledMessage, splitStoredPhone } from '@/shared/rules/scheduled-message';
import { useSaveScheduledMessage, useTemplates } from './scheduled-messages';

const FIELDS = ['chip', 'country', 'to', 'when', 'message', 'flow', 'template'] as const;

/** The picker's value ('YYYY-MM-DD HH:mm:ss', the viewer's time) of an ISO instant, to the minute. */
function pickerValue(iso: string): string | null {
  const d = dayjs(iso);
  return d.isValid() ? d.format('YYYY-MM-DD HH:mm:00') : null;
}

export interface ScheduleDialogProps {
  opened: boolean;
  onClose(): void;
  /** The item to edit; null for a new one. */
  item: ScheduledMessage | null;
  /** A new item's chip and number (from a conversation). */
  preset?: { chip: string; phone: string };
}

export function ScheduleDialog({ opened, onClose, item, preset }: ScheduleDialogProps) {
  return (
    <Dialog
      opened={opened}
      onClose={onClose}
      title={item ? labels.schedule.editSchedule : messages.scheduleMessage}
      size="lg"
    >
      {opened && <ScheduleForm item={item} preset={preset} onDone={onClose} />}
    </Dialog>
  );
}

function ScheduleForm({
  item,
  preset,
  onDone,
}: {
  item: ScheduledMessage | null;
  preset?: { chip: string; phone: string };
  onDone(): void;
}) {
  const itemId = useItemId(item);
  const chips = useChips();
  const flows = useFlows();
  const flowChoices = flowOptions(flows.data);
  const save = useSaveScheduledMessage();
  // Editing strips a stored leading 55 into the country code (spec 2 §5).
  const stored = splitStoredPhone(item?.to ?? preset?.phone ?? '');
  const [chipId, setChipId] = useState<string | null>(item?.chip ?? preset?.chip ?? null);
  const [countryCode, setCountryCode] = useState(stored.country_code || DEFAULT_COUNTRY_CODE);
  const [to, setTo] = useState(stored.to);
  const [when, setWhen] = useState<string | null>(item ? pickerValue(item.scheduledTo) : null);
  const [type, setType] = useState<'text' | 'flow'>(item?.type ?? 'text');
  const [message, setMessage] = useState(item?.message ?? '');
  const [flow, setFlow] = useState<string | null>(item?.flow ?? null);
  const [templateKey, setTemplateKey] = useState<string | null>(
    item?.template ? `${item.template.name}|${item.template.language}` : null,
  );
  const { formRef, errorOf, show, clear, reset, afterSave } = useFormError(FIELDS);

  const chip = (chips.data ?? []).find((c) => c._id === chipId) ?? null;
  const templates = useTemplates(chip?.official ? chip.waba : null);
  const template = (templates.data ?? []).find((t) => `${t.name}|${t.language}` === templateKey) ?? null;

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const input = {
      chip: chipId ?? '',
      country_code: countryCode,
      to,
      type,
      message,
      flow,
      template,
      scheduledTo: when ? dayjs(when).toISOString() : '',
    };
    const result = prepareScheduledMessage(input, chip);
    if (!result.ok) return show(result.error);
    reset();
    save.mutate({ ...input, _id: itemId, editing: item !== null }, afterSave(onDone));
  }

  const chipOptions = (chips.data ?? [])
    .filter((c) => !c.filed)
    .map((c) => ({ value: c._id, label: c.official ? `${c.name} (API Oficial)` : c.name }));

  return (
    <DialogForm
      formRef={formRef}
      onSubmit={submit}
      error={errorOf('form')}
      onCancel={onDone}
      loading={save.isPending}
      label={labels.schedule.schedule}
    >
      <Select
        label={labels.schedule.sendingChip}
        placeholder={labels.common.chooseChip}
        data={chipOptions}
        value={chipId}
        onChange={(v) => {
          setChipId(v);
          setTemplateKey(null);
          clear('chip');
        }}
        error={errorOf('chip') ?? (chips.isError ? messages.chipsLoadFailed : null)}
        comboboxProps={{ withinPortal: true }}
      />
      <Group grow align="flex-start" wrap="nowrap" gap="sm">
        <TextInput
          label={labels.common.countryCode}
          inputMode="numeric"
          maw={130}
          value={countryCode}
          onChange={(e) => {
            setCountryCode(e.currentTarget.value);
            clear('country');
          }}
          error={errorOf('country')}
        />
        <TextInput
          label={labels.schedule.targetNumber}
          description={labels.schedule.areaCodeAndNumberOnlyDigits}
          inputMode="numeric"
          value={to}
          onChange={(e) => {
            setTo(e.currentTarget.value);
            clear('to');
          }}
          error={errorOf('to')}
        />
      </Group>
      {/* The same pt-BR picker as /contatos: dd/mm/aaaa hh:mm, no seconds (spec 2 §2.4). */}
      <FutureDateTimePicker
        label={labels.schedule.scheduleDateAndTime}
        value={when}
        onChange={(v) => {
          setWhen(v);
          clear('when');
        }}
        error={errorOf('when')}
      />
      {chip?.official ? (
        <Select
          label={labels.common.messageTemplate}
          description={labels.common.onlyTemplatesApprovedAndNoVariables}
          placeholder={templates.isPending ? labels.common.loadingTemplates : labels.common.chooseTemplate}
          data={(templates.data ?? []).map((t) => ({
            value: `${t.name}|${t.language}`,
            label: `${t.name} (${t.language})`,
          }))}
          value={templateKey}
          onChange={(v) => {
            setTemplateKey(v);
            clear('template');
          }}
          error={errorOf('template') ?? (templates.error ? errorMessage(templates.error) : null)}
          comboboxProps={{ withinPortal: true }}
        />
      ) : (
        <>
          <SegmentedControl
            aria-label={labels.schedule.sendingType}
            value={type}
            onChange={(v) => setType(v as 'text' | 'flow')}
            data={[
              { value: 'text', label: labels.schedule.text },
              { value: 'flow', label: labels.common.flow },
            ]}
          />
          {type === 'text' ? (
            <Textarea
              label={labels.common.message}
              autosize
              minRows={3}
              maxRows={10}
              value={message}
              onChange={(e) => {
                setMessage(e.currentTarget.value);
                clear('message');
              }}
              error={errorOf('message')}
            />
          ) : (
            <Select
              label={labels.common.flow}
              description={flows.data && flowChoices.length === 0 ? messages.noFlows : undefined}
              data={flowChoices}
              value={flow}
              onChange={(v) => {
                setFlow(v);
                clear('flow');
              }}
              error={errorOf('flow')}
            />
          )}
        </>
      )}
      {template && (
        <Textarea
          label={labels.common.templatePreview}
          value={template.preview}
          readOnly
          autosize
          minRows={2}
        />
      )}
    </DialogForm>
  );
}
