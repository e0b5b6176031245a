// The official campaign dialog (spec 3 §2.11, §3 Official campaign extras, §5 Official campaign): name, an
// official connected number, audience or tags, an approved template of that number with one row per {{n}}
// (an audience column and a fallback) and its image header uploaded here (jpeg or png), a flow per quick-reply
// button, when conversations are created (all: type, chatbot or flow, department) and the schedule. The shared
// rule (officialCampaignProblems) checks it as the server will; each message shows on its field.
import '@mantine/dates/styles.css';
import {
  Button,
  FileButton,
  Group,
  Image,
  Input,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconPhoto } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '@/app/lib/api';
import { useAudiences, useChips } from '@/app/lib/lists';
import { Dialog } from '@/app/ui/Dialog';
import { DialogForm } from '@/app/ui/FormParts';
import { useFormError } from '@/app/ui/use-form-error';
import { useItemId } from '@/app/ui/use-item-id';
import { ButtonFlows, ConversationRuleFields, TemplatePreview } from '@/app/widgets/template/TemplateParts';
import { payloadsFor } from '@/app/widgets/template/template-parts';
import type { Campaign, TemplateParameter } from '@/shared/contract/campaigns';
import { labels } from '@/shared/messages';
import { campaignLabels, officialCampaignLabels } from '@/shared/messages-campaigns';
import { officialCampaignProblems } from '@/shared/rules/campaign';
import { AudienceFields, chosenAudience, ScheduleFields } from './CampaignFields';
import {
  approvedTemplates,
  audienceColumns,
  EMPTY_OFFICIAL_DRAFT,
  headerImageProblem,
  type OfficialDraft,
  officialPayload,
  parametersFor,
  templateKey,
  templateRef,
  uploadHeaderImage,
  useChipTemplates,
  useSaveOfficialCampaign,
} from './official-data';

const L = campaignLabels.campaigns;
const O = officialCampaignLabels;
const BASE_FIELDS = [
  'name',
  'chip',
  'scheduledTo',
  'audience',
  'audience_tags',
  'template',
  'conversation_creation_rule',
  'redirect',
  'chatbot',
  'flow',
  'department',
] as const;
const parameterField = (i: number) => `template_parameters.${i}` as const;

/** What the dialog opens on: a campaign to edit, or a new one's draft (empty, or a duplicate's). */
export interface OfficialDialogItem {
  editing: Campaign | null;
  draft: OfficialDraft;
}

interface Props {
  opened: boolean;
  onClose(): void;
  item: OfficialDialogItem | null;
}

export function OfficialCampaignDialog({ opened, onClose, item }: Props) {
  return (
    <Dialog
      opened={opened}
      onClose={onClose}
      title={item?.editing ? O.editCampaign : O.newCampaign}
      size="lg"
    >
      {opened && <OfficialCampaignForm item={item} onDone={onClose} />}
    </Dialog>
  );
}

function OfficialCampaignForm({ item, onDone }: { item: OfficialDialogItem | null; onDone(): void }) {
  const editing = item?.editing ?? null;
  const itemId = useItemId(editing);
  const [draft, setDraft] = useState<OfficialDraft>(item?.draft ?? EMPTY_OFFICIAL_DRAFT);
  const chips = useChips();
  const audiences = useAudiences();
  const templates = useChipTemplates(draft.chip);
  const save = useSaveOfficialCampaign();
  const fields = [...BASE_FIELDS, ...draft.template_parameters.map((_, i) => parameterField(i))];
  const { formRef, errorOf, show, clear, reset, afterSave } = useFormError<(typeof fields)[number]>(fields);
  const [uploading, setUploading] = useState<number | null>(null);
  const [imageNames, setImageNames] = useState<Record<number, string>>({});

  const set = <K extends keyof OfficialDraft>(
    key: K,
    value: OfficialDraft[K],
    field?: (typeof fields)[number],
  ) => {
    setDraft((d) => ({ ...d, [key]: value }));
    if (field) clear(field);
  };
  const setParameter = (at: number, change: Partial<TemplateParameter>) => {
    setDraft((d) => ({
      ...d,
      template_parameters: d.template_parameters.map((p, i) => (i === at ? { ...p, ...change } : p)),
    }));
    clear(parameterField(at));
  };

  // Official campaigns go out on official numbers that are connected (spec 3 §7).
  const chipOptions = (chips.data ?? [])
    .filter((c) => !c.filed && c.official && c.status === 'open')
    .map((c) => ({ value: c._id, label: c.name }));
  const audience = chosenAudience(audiences.data, draft.audience).chosen;
  const columns = draft.audience_type === 'audience' && audience ? audienceColumns(audience.props) : [];
  const approved = approvedTemplates(templates.data);
  const templateOptions = approved.map((t) => ({ value: templateKey(t), label: t.name }));
  // A campaign being edited keeps its template listed even if the number's list no longer has it.
  if (draft.template && !templateOptions.some((o) => o.value === templateKey(draft.template as never)))
    templateOptions.unshift({ value: templateKey(draft.template), label: draft.template.name });

  function chooseTemplate(key: string | null) {
    const chosen = approved.find((t) => templateKey(t) === key);
    setDraft((d) => {
      if (!chosen) return { ...d, template: null, template_parameters: [], template_payloads: [] };
      const ref = templateRef(chosen);
      return {
        ...d,
        template: ref,
        template_parameters: parametersFor(ref.components, d.template_parameters),
        template_payloads: payloadsFor(ref.components, d.template_payloads),
      };
    });
    reset();
  }

  async function pickImage(at: number, file: File | null) {
    if (!file) return;
    const problem = headerImageProblem(file);
    if (problem) return show({ field: parameterField(at), message: problem });
    setUploading(at);
    try {
      const link = await uploadHeaderImage(file);
      setParameter(at, { link });
      setImageNames((n) => ({ ...n, [at]: file.name }));
    } catch (err) {
      show({ field: parameterField(at), message: errorMessage(err) });
    } finally {
      setUploading(null);
    }
  }

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const payload = officialPayload(draft);
    const problem = officialCampaignProblems(payload)[0];
    if (problem) return show(problem);
    reset();
    save.mutate({ _id: itemId, editing: editing !== null, fields: payload }, afterSave(onDone));
  }

  let templateHint: string = O.templateHelp;
  if (!draft.chip) templateHint = O.chooseNumberFirst;
  else if (templates.isPending) templateHint = O.loadingTemplates;
  else if (templates.error) templateHint = errorMessage(templates.error);
  else if (approved.length === 0) templateHint = O.noTemplateApproved;

  return (
    <DialogForm
      formRef={formRef}
      onSubmit={submit}
      error={errorOf('form')}
      onCancel={onDone}
      loading={save.isPending || uploading !== null}
    >
      <TextInput
        label={L.campaignName}
        value={draft.name}
        onChange={(e) => set('name', e.currentTarget.value, 'name')}
        error={errorOf('name')}
        data-autofocus
      />
      <Select
        label={O.sendingNumber}
        description={chips.data && chipOptions.length === 0 ? O.noNumberConnected : O.sendingHelpNumber}
        placeholder={O.chooseNumber}
        data={chipOptions}
        value={draft.chip}
        onChange={(v) => {
          // Another number has other templates (spec 3 §4: changing the chip reloads them).
          if (v !== draft.chip)
            setDraft((d) => ({
              ...d,
              chip: v,
              template: null,
              template_parameters: [],
              template_payloads: [],
            }));
          clear('chip');
          clear('template');
        }}
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
      <Select
        label={labels.common.messageTemplate}
        description={templateHint}
        placeholder={labels.common.chooseTemplate}
        data={templateOptions}
        value={draft.template ? templateKey(draft.template) : null}
        onChange={chooseTemplate}
        error={errorOf('template')}
        disabled={!draft.chip}
        searchable
        comboboxProps={{ withinPortal: true }}
      />
      {draft.template && <TemplatePreview components={draft.template.components} />}
      {draft.template_parameters.length > 0 && (
        <Stack gap="xs">
          {draft.template_parameters.some((p) => p.type === 'text') && (
            <div>
              <Input.Label>{O.templateVariables}</Input.Label>
              <Input.Description>
                {draft.audience_type === 'tags' ? O.variablesByTags : O.variablesHelp}
              </Input.Description>
            </div>
          )}
          {draft.template_parameters.map((p, at) =>
            p.type === 'image' ? (
              <ImageParameter
                key={`image-${p.index}`}
                parameter={p}
                fileName={imageNames[at] ?? null}
                uploading={uploading === at}
                error={errorOf(parameterField(at))}
                onPick={(file) => void pickImage(at, file)}
              />
            ) : (
              <Paper key={`${p.location}-${p.index}`} withBorder p="xs" radius="md">
                <Stack gap={6}>
                  <Text fz="sm" fw={600}>
                    {p.location === 'header' ? O.variableNoHeader(p.par) : O.variableNoBody(p.par)}
                  </Text>
                  <Group grow align="flex-start" gap="xs" wrap="wrap">
                    {draft.audience_type === 'audience' && (
                      <Select
                        miw={200}
                        label={O.audienceColumn(p.par)}
                        placeholder={O.noColumn}
                        data={columns.map((c) => ({ value: c, label: `{${c}}` }))}
                        value={p.var || null}
                        onChange={(v) => setParameter(at, { var: v ?? '' })}
                        clearable
                        comboboxProps={{ withinPortal: true }}
                      />
                    )}
                    <TextInput
                      miw={200}
                      label={O.defaultValue(p.par)}
                      value={p.fallback}
                      onChange={(e) => setParameter(at, { fallback: e.currentTarget.value })}
                      error={errorOf(parameterField(at))}
                    />
                  </Group>
                </Stack>
              </Paper>
            ),
          )}
        </Stack>
      )}
      <ButtonFlows
        payloads={draft.template_payloads}
        onChange={(payloads) => setDraft((d) => ({ ...d, template_payloads: payloads }))}
      />
      <ConversationRuleFields
        draft={draft}
        onChange={(patch, stale) => {
          setDraft((d) => ({ ...d, ...patch }));
          for (const f of stale) clear(f);
        }}
        errorOf={errorOf}
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

/** The image header: a jpeg or png sent to the media store, its preview once there. */
function ImageParameter(props: {
  parameter: TemplateParameter;
  fileName: string | null;
  uploading: boolean;
  error: string | null;
  onPick(file: File | null): void;
}) {
  const { parameter, fileName, uploading, error } = props;
  return (
    <Input.Wrapper label={O.headerImage} description={O.headerImageHelp} error={error}>
      <Stack gap="xs" mt={4}>
        {parameter.link && (
          <Image
            src={parameter.link}
            alt={O.imagePreview}
            mah={160}
            w="auto"
            fit="contain"
            radius="sm"
            style={{ alignSelf: 'flex-start' }}
          />
        )}
        <Group gap="xs">
          <FileButton onChange={props.onPick} accept="image/jpeg,image/png">
            {(p) => (
              <Button
                {...p}
                size="xs"
                variant="light"
                loading={uploading}
                leftSection={<IconPhoto size={16} aria-hidden />}
              >
                {parameter.link ? O.changeImage : O.chooseImage}
              </Button>
            )}
          </FileButton>
          {uploading && <Text fz="sm">{O.sendingImage}</Text>}
          {!uploading && fileName && <Text fz="sm">{O.imageSent(fileName)}</Text>}
        </Group>
      </Stack>
    </Input.Wrapper>
  );
}
