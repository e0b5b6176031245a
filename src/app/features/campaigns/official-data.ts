// The official campaigns screen's calls and the dialog's draft (spec 3 §2.11, §3 Official campaign extras, §4,
// §5 Official campaign): the list (refreshed by official_campaign_updated), the chip's approved templates, the
// parameters and button flows a template asks for, save, cancel, delete and duplicate.
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { api, upload } from '@/app/lib/api';
import { useCallMutation } from '@/app/lib/mutation';
import { callQuery } from '@/app/lib/query';
import { payloadsFor } from '@/app/widgets/template/template-parts';
import type { ChipRedirect } from '@/shared/constants';
import type {
  Campaign,
  ConversationCreationRule,
  OfficialCampaignFields,
  OfficialTemplateRef,
  TemplateParameter,
  TemplatePayload,
} from '@/shared/contract/campaigns';
import {
  type MessageTemplate,
  TEMPLATE_IMAGE_MAX_BYTES,
  TEMPLATE_IMAGE_TYPES,
} from '@/shared/contract/templates';
import {
  campaignLabels,
  campaignMessages,
  officialCampaignLabels,
  templateMessages,
} from '@/shared/messages-campaigns';
import { templateParameters } from '@/shared/rules/template';
import { audiencePayload, REFRESH_AFTER_SAVE_MS, scheduledToOf } from './campaign-data';

const O = officialCampaignLabels;

export const officialCampaignsQuery = callQuery('get-campaigns-by-user', { official: true });

/** While one is scheduled or sending the list also looks again now and then (the socket may be away). */
const SENDING_POLL_MS = 10_000;

export const useOfficialCampaigns = () =>
  useQuery({
    ...officialCampaignsQuery,
    refetchInterval: (q) =>
      q.state.data?.some((c) => c.status === 'started' || c.status === 'scheduled') ? SENDING_POLL_MS : false,
  });

const refreshOfficialCampaigns = (client: QueryClient) =>
  client.invalidateQueries({ queryKey: officialCampaignsQuery.queryKey });

/** The sent count, or 'Enviando...' while the campaign sends (spec 3 §4). */
export const sentLabel = (c: Pick<Campaign, 'status' | 'sent_messages' | 'delivery_data'>) =>
  c.status === 'started' ? O.sending : String(c.delivery_data?.sent ?? c.sent_messages);

/** Every template of the chip's WABA (the dialog keeps the approved ones). */
export const useChipTemplates = (chip: string | null) =>
  useQuery({
    ...callQuery('get-message-templates', { chip: chip ?? '' }),
    enabled: !!chip,
    staleTime: 30_000,
  });

/** Spec 3 §7: only templates approved by the provider can be used. */
export const approvedTemplates = (templates: readonly MessageTemplate[] | undefined) =>
  (templates ?? []).filter((t) => t.status === 'APPROVED');

/** A template as the campaign stores it. */
export const templateRef = (t: MessageTemplate): OfficialTemplateRef => ({
  name: t.name,
  language: t.language,
  category: t.category,
  components: t.components as Record<string, unknown>[],
});

/** A template's key in the picker: a name may exist in two languages. */
export const templateKey = (t: Pick<OfficialTemplateRef, 'name' | 'language'>) => `${t.name}|${t.language}`;

const sameParameter = (a: TemplateParameter, b: TemplateParameter) =>
  a.location === b.location && a.index === b.index && a.type === b.type;

/**
 * The rows of a template's parameters (one per {{n}} of header text and body, and an image header), keeping what
 * was already chosen for the same place (a template picked again, a campaign edited or duplicated).
 */
export function parametersFor(
  components: readonly Record<string, unknown>[],
  previous: readonly TemplateParameter[] = [],
): TemplateParameter[] {
  return templateParameters(components).map((needed) => {
    const before = previous.find((p) => sameParameter(p, needed));
    return before
      ? { ...needed, var: before.var, fallback: before.fallback, link: before.link ?? null }
      : needed;
  });
}

/** The columns of an audience a variable can take (telefone is the number, not a variable). */
export const audienceColumns = (props: readonly string[]) =>
  props.map((p) => p.trim()).filter((p) => p && p.toLowerCase() !== 'telefone');

/** A header image's problem before it is sent (jpeg or png, at most 5 MB), or null. */
export function headerImageProblem(file: { type: string; size: number }): string | null {
  if (!(TEMPLATE_IMAGE_TYPES as readonly string[]).includes(file.type)) return O.imageTypeInvalid;
  if (file.size > TEMPLATE_IMAGE_MAX_BYTES) return templateMessages.templateHeaderImageTooLarge;
  return null;
}

/** Sends the header image to the media store: its link for the template parameter. */
export async function uploadHeaderImage(file: File): Promise<string> {
  const saved = await upload('upload-media', file, file.name, { type: 'image', name: file.name });
  return saved.url;
}

/** What the official dialog edits. */
export interface OfficialDraft {
  name: string;
  chip: string | null;
  audience_type: 'audience' | 'tags';
  audience: string | null;
  audience_tags: string[];
  audience_tags_skip: string[];
  template: OfficialTemplateRef | null;
  template_parameters: TemplateParameter[];
  template_payloads: TemplatePayload[];
  conversation_creation_rule: ConversationCreationRule | null;
  redirect: ChipRedirect | null;
  chatbot: string | null;
  flow: string | null;
  department: string | null;
  /** 'now': Imediato; 'at': on `when`. */
  schedule: 'now' | 'at';
  /** The picker's value ('YYYY-MM-DD HH:mm:ss', the viewer's time), null while none is picked. */
  when: string | null;
}

/** Spec 3 §9: the default conversation creation rule is all. */
export const EMPTY_OFFICIAL_DRAFT: OfficialDraft = {
  name: '',
  chip: null,
  audience_type: 'audience',
  audience: null,
  audience_tags: [],
  audience_tags_skip: [],
  template: null,
  template_parameters: [],
  template_payloads: [],
  conversation_creation_rule: 'all',
  redirect: null,
  chatbot: null,
  flow: null,
  department: null,
  schedule: 'now',
  when: null,
};

/** A campaign as the dialog edits it. */
export function officialDraftOf(c: Campaign): OfficialDraft {
  const when = c.scheduledTo ? dayjs(c.scheduledTo) : null;
  const components = c.template?.components ?? [];
  return {
    name: c.name,
    chip: c.chip,
    audience_type: c.audience_type,
    audience: c.audience,
    audience_tags: [...c.audience_tags],
    audience_tags_skip: [...c.audience_tags_skip],
    template: c.template,
    template_parameters: parametersFor(components, c.template_parameters),
    template_payloads: payloadsFor(components, c.template_payloads),
    conversation_creation_rule: c.conversation_creation_rule,
    redirect: c.redirect,
    chatbot: c.chatbot,
    flow: c.flow,
    department: c.department,
    schedule: when?.isValid() ? 'at' : 'now',
    when: when?.isValid() ? when.format('YYYY-MM-DD HH:mm:00') : null,
  };
}

/**
 * Duplicar (spec 3 §4): the same chip, audience, template and choices; the id, counters, status, dates,
 * started, delivery data and the schedule are not copied (the draft has none; the schedule goes back to Imediato).
 */
export function duplicateOfficialDraft(c: Campaign): OfficialDraft {
  return {
    ...officialDraftOf(c),
    name: campaignLabels.campaigns.copy(c.name),
    schedule: 'now',
    when: null,
  };
}

/** The fields as the call takes them, every one given. */
export type OfficialPayload = Omit<Required<OfficialCampaignFields>, 'template_parameters'> & {
  template_parameters: TemplateParameter[];
};

/** The draft as the call takes it: only the chosen audience kind and the rule's own choices filled. */
export function officialPayload(d: OfficialDraft): OfficialPayload {
  const all = d.conversation_creation_rule === 'all';
  return {
    name: d.name.trim(),
    chip: d.chip ?? '',
    ...audiencePayload(d),
    template: d.template,
    template_parameters: d.template_parameters.map((p) => ({
      ...p,
      var: p.var.trim(),
      fallback: p.fallback.trim(),
    })),
    template_payloads: d.template_payloads,
    conversation_creation_rule: d.conversation_creation_rule,
    redirect: all ? d.redirect : null,
    chatbot: all && d.redirect === 'ai_chatbot' ? d.chatbot : null,
    flow: all && d.redirect === 'flow_chatbot' ? d.flow : null,
    department: all ? d.department : null,
    scheduledTo: scheduledToOf(d),
  };
}

type SaveVars = { _id: string; editing: boolean; fields: OfficialPayload };

/** Creates (under the id named when the dialog opened) or edits; errors are left to the dialog. */
export function useSaveOfficialCampaign() {
  const client = useQueryClient();
  return useCallMutation(
    ({ _id, fields }: SaveVars) => api('create-or-update-official-campaign', { _id, ...fields }),
    {
      successMessage: (_, vars) =>
        vars.editing ? campaignMessages.campaignUpdated : campaignMessages.campaignSaved,
      invalidates: [officialCampaignsQuery.queryKey],
      onSuccess: () => {
        setTimeout(() => void refreshOfficialCampaigns(client), REFRESH_AFTER_SAVE_MS);
      },
    },
  );
}

export const useCancelOfficialCampaign = () =>
  useCallMutation(
    (c: Campaign) => api('create-or-update-official-campaign', { _id: c._id, cancel_now: true }),
    {
      successMessage: campaignMessages.campaignCanceled,
      invalidates: [officialCampaignsQuery.queryKey],
      toastError: true,
    },
  );

export const useDeleteOfficialCampaign = () =>
  useCallMutation((c: Campaign) => api('create-or-update-official-campaign', { _id: c._id, filed: true }), {
    successMessage: campaignMessages.campaignDeleted,
    invalidates: [officialCampaignsQuery.queryKey],
    toastError: true,
  });
