// The campaign dialog (spec 3 §2.10, §5 Campaign, §9): chip, audience or tags, text versions (one drawn per
// person) or a flow, interval and schedule, with the chip-ban warning. The shared rule (rules/campaign.ts)
// checks it as the server will and each message shows on its field.
import '@mantine/dates/styles.css';
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Input,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { IconAlertTriangle, IconPlus, IconTrash } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { flowOptions, useAudiences, useChips, useFlows } from '@/app/lib/lists';
import { Dialog } from '@/app/ui/Dialog';
import { DialogForm } from '@/app/ui/FormParts';
import { useFormError } from '@/app/ui/use-form-error';
import { useItemId } from '@/app/ui/use-item-id';
import { CAMPAIGN_INTERVALS, type Campaign, MAX_CAMPAIGN_VERSIONS } from '@/shared/contract/campaigns';
import { labels, messages } from '@/shared/messages';
import { campaignLabels, campaignMessages } from '@/shared/messages-campaigns';
import { campaignProblems } from '@/shared/rules/campaign';
import { AudienceFields, chosenAudience, ScheduleFields } from './CampaignFields';
import {
  audienceVariables,
  type CampaignDraft,
  campaignPayload,
  EMPTY_DRAFT,
  insertAt,
  useSaveCampaign,
} from './campaign-data';

const L = campaignLabels.campaigns;
const FIELDS = [
  'name',
  'chip',
  'scheduledTo',
  'audience',
  'audience_tags',
  'message',
  'flow',
  'interval',
] as const;

/** What the dialog opens on: a campaign to edit, or a new one's draft (empty, or a duplicate's). */
export interface CampaignDialogItem {
  editing: Campaign | null;
  draft: CampaignDraft;
}

interface Props {
  opened: boolean;
  onClose(): void;
  item: CampaignDialogItem | null;
}

export function CampaignDialog({ opened, onClose, item }: Props) {
  return (
    <Dialog
      opened={opened}
      onClose={onClose}
      title={item?.editing ? L.editCampaign : L.newCampaign}
      size="lg"
    >
      {opened && <CampaignForm item={item} onDone={onClose} />}
    </Dialog>
  );
}

function CampaignForm({ item, onDone }: { item: CampaignDialogItem | null; onDone(): void }) {
  const editing = item?.editing ?? null;
  const itemId = useItemId(editing);
  const [draft, setDraft] = useState<CampaignDraft>(item?.draft ?? EMPTY_DRAFT);
  const chips = useChips();
  const flows = useFlows();
  const audiences = useAudiences();
  const save = useSaveCampaign();
  const { formRef, errorOf, showAll, clear, reset, afterSave } = useFormError(FIELDS);
  // The version being written, and its textareas: a variable goes where the cursor is.
  const focused = useRef(0);
  const versionRefs = useRef<(HTMLTextAreaElement | null)[]>([]);

  const set = <K extends keyof CampaignDraft>(
    key: K,
    value: CampaignDraft[K],
    field?: (typeof FIELDS)[number],
  ) => {
    setDraft((d) => ({ ...d, [key]: value }));
    if (field) clear(field);
  };
  const setVersion = (at: number, text: string) => {
    setDraft((d) => ({ ...d, message: d.message.map((v, i) => (i === at ? text : v)) }));
    clear('message');
  };

  // Regular campaigns go out on unofficial chips that are connected (spec 3 §7).
  const chipOptions = (chips.data ?? [])
    .filter((c) => !c.filed && !c.official && c.status === 'open')
    .map((c) => ({ value: c._id, label: c.name }));
  const audience = chosenAudience(audiences.data, draft.audience).chosen;
  const variables = draft.audience_type === 'audience' && audience ? audienceVariables(audience.props) : [];
  const flowChoices = flowOptions(flows.data);
  const firstBlank = Math.max(
    0,
    draft.message.findIndex((v) => !v.trim()),
  );

  function insertVariable(variable: string) {
    const at = Math.min(focused.current, draft.message.length - 1);
    const area = versionRefs.current[at];
    const text = draft.message[at] ?? '';
    const start = area && document.activeElement === area ? area.selectionStart : text.length;
    const end = area && document.activeElement === area ? area.selectionEnd : text.length;
    const next = insertAt(text, variable, start, end);
    setVersion(at, next.text);
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(next.cursor, next.cursor);
    });
  }

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const fields = campaignPayload(draft);
    // Every missing field at once, the first one in view and focused.
    const problems = campaignProblems(fields);
    if (problems.length) return showAll(problems);
    reset();
    save.mutate({ _id: itemId, editing: editing !== null, fields }, afterSave(onDone));
  }

  return (
    <DialogForm
      formRef={formRef}
      onSubmit={submit}
      error={errorOf('form')}
      onCancel={onDone}
      loading={save.isPending}
    >
      <Alert color="yellow" icon={<IconAlertTriangle aria-hidden />} p="xs">
        <Text fz="sm">{campaignMessages.campaignBanWarning}</Text>
      </Alert>
      <TextInput
        label={L.campaignName}
        value={draft.name}
        onChange={(e) => set('name', e.currentTarget.value, 'name')}
        error={errorOf('name')}
        data-autofocus
      />
      <Select
        label={labels.schedule.sendingChip}
        description={chips.data && chipOptions.length === 0 ? L.noChipConnected : L.sendingHelpChip}
        placeholder={labels.common.chooseChip}
        data={chipOptions}
        value={draft.chip}
        onChange={(v) => set('chip', v, 'chip')}
        error={errorOf('chip')}
        comboboxProps={{ withinPortal: true }}
      />
      <AudienceFields
        draft={draft}
        audiences={audiences.data}
        set={(key, value, field) => set(key, value, field)}
        clear={clear}
        errorOf={errorOf}
      />
      <Input.Wrapper label={messages.messageType}>
        <SegmentedControl
          fullWidth
          aria-label={messages.messageType}
          value={draft.message_type}
          onChange={(v) => {
            set('message_type', v as CampaignDraft['message_type']);
            clear('message');
            clear('flow');
          }}
          data={[
            { value: 'text', label: labels.schedule.text },
            { value: 'flow', label: labels.common.flow },
          ]}
        />
      </Input.Wrapper>
      {draft.message_type === 'text' ? (
        <Stack gap="xs">
          <div>
            <Input.Label>{L.versions}</Input.Label>
            <Input.Description>{L.versionsHelp}</Input.Description>
          </div>
          {variables.length > 0 && (
            <Stack gap={4}>
              <div>
                <Input.Label>{L.variables}</Input.Label>
                <Input.Description>{L.variablesHelp}</Input.Description>
              </div>
              <Group gap={6}>
                {variables.map((v) => (
                  <UnstyledButton
                    key={v}
                    aria-label={L.insertVariable(v)}
                    // Keeps the cursor in the version being written.
                    onMouseDown={(e) => e.preventDefault()}
                    onClick={() => insertVariable(v)}
                    px={8}
                    py={2}
                    fz="sm"
                    style={{
                      borderRadius: 12,
                      background: 'var(--mantine-color-blue-light)',
                      color: 'var(--mantine-color-blue-light-color)',
                    }}
                  >
                    {v}
                  </UnstyledButton>
                ))}
              </Group>
            </Stack>
          )}
          {draft.message.map((version, at) => (
            <Group
              // biome-ignore lint/suspicious/noArrayIndexKey: a version is its place in the list.
              key={at}
              gap="xs"
              align="flex-start"
              wrap="nowrap"
            >
              <Textarea
                ref={(el) => {
                  versionRefs.current[at] = el;
                }}
                style={{ flex: 1 }}
                label={L.version(at + 1)}
                autosize
                minRows={2}
                maxRows={8}
                value={version}
                onFocus={() => {
                  focused.current = at;
                }}
                onChange={(e) => setVersion(at, e.currentTarget.value)}
                error={at === firstBlank ? errorOf('message') : null}
              />
              {at > 0 && (
                <ActionIcon
                  mt={28}
                  variant="subtle"
                  color="red"
                  aria-label={L.removeVersion(at + 1)}
                  onClick={() => {
                    setDraft((d) => ({ ...d, message: d.message.filter((_, i) => i !== at) }));
                    focused.current = 0;
                    clear('message');
                  }}
                >
                  <IconTrash size={18} aria-hidden />
                </ActionIcon>
              )}
            </Group>
          ))}
          {draft.message.length < MAX_CAMPAIGN_VERSIONS && (
            <Group>
              <Button
                size="xs"
                variant="light"
                leftSection={<IconPlus size={14} aria-hidden />}
                onClick={() => set('message', [...draft.message, ''])}
              >
                {L.addVersion}
              </Button>
            </Group>
          )}
        </Stack>
      ) : (
        <Select
          label={labels.common.flow}
          placeholder={messages.chooseFlow}
          description={flows.data && flowChoices.length === 0 ? messages.noFlows : undefined}
          data={flowChoices}
          value={draft.flow}
          onChange={(v) => set('flow', v, 'flow')}
          error={errorOf('flow')}
          comboboxProps={{ withinPortal: true }}
        />
      )}
      <Select
        label={L.interval}
        data={CAMPAIGN_INTERVALS.map((s) => ({ value: String(s), label: L.seconds(s) }))}
        value={String(draft.interval)}
        onChange={(v) => v && set('interval', Number(v), 'interval')}
        error={errorOf('interval')}
        allowDeselect={false}
        comboboxProps={{ withinPortal: true }}
      />
      <ScheduleFields
        draft={draft}
        set={(key, value, field) => set(key, value, field)}
        clear={clear}
        errorOf={errorOf}
      />
    </DialogForm>
  );
}
