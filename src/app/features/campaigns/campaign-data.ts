// The campaigns screen's calls and the dialog's draft: the list (looked at again while a campaign sends), the
// audiences it picks from, save, cancel, delete, duplicate, report and its export.
import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { api } from '@/app/lib/api';
import { saveSheet } from '@/app/lib/download';
import { useCallMutation } from '@/app/lib/mutation';
import { callQuery } from '@/app/lib/query';
import {
  CAMPAIGN_INTERVALS,
  type Campaign,
  type CampaignFields,
  type CampaignProgress,
} from '@/shared/contract/campaigns';
import { campaignLabels, campaignMessages } from '@/shared/messages-campaigns';

const L = campaignLabels.campaigns;

export const campaignsQuery = callQuery('get-campaigns-by-user', { official: false });

/** Spec 3 §4: the list refreshes 2 s after a save (the job may have started the campaign meanwhile). */
export const REFRESH_AFTER_SAVE_MS = 2000;
/** While a campaign sends, its sent count moves: the list looks again this often. */
const SENDING_POLL_MS = 5000;

export const useCampaigns = () =>
  useQuery({
    ...campaignsQuery,
    refetchInterval: (q) =>
      q.state.data?.some((c) => c.status === 'started' || c.status === 'scheduled') ? SENDING_POLL_MS : false,
  });

export const refreshCampaigns = (client: QueryClient) =>
  client.invalidateQueries({ queryKey: campaignsQuery.queryKey });

/** What the dialog edits: the campaign's fields, with the schedule as the picker holds it. */
export interface CampaignDraft {
  name: string;
  chip: string | null;
  audience_type: 'audience' | 'tags';
  audience: string | null;
  audience_tags: string[];
  audience_tags_skip: string[];
  message_type: 'text' | 'flow';
  /** The text versions; the first one always there. */
  message: string[];
  flow: string | null;
  interval: number;
  /** 'now': Imediato; 'at': on `when`. */
  schedule: 'now' | 'at';
  /** The picker's value ('YYYY-MM-DD HH:mm:ss', the viewer's time), null while none is picked. */
  when: string | null;
}

export const EMPTY_DRAFT: CampaignDraft = {
  name: '',
  chip: null,
  audience_type: 'audience',
  audience: null,
  audience_tags: [],
  audience_tags_skip: [],
  message_type: 'text',
  message: [''],
  flow: null,
  interval: CAMPAIGN_INTERVALS[1],
  schedule: 'now',
  when: null,
};

/** A campaign as the dialog edits it. */
export function draftOf(c: Campaign): CampaignDraft {
  const when = c.scheduledTo ? dayjs(c.scheduledTo) : null;
  return {
    name: c.name,
    chip: c.chip,
    audience_type: c.audience_type,
    audience: c.audience,
    audience_tags: [...c.audience_tags],
    audience_tags_skip: [...c.audience_tags_skip],
    message_type: c.message_type,
    message: c.message.length ? [...c.message] : [''],
    flow: c.flow,
    interval: c.interval,
    schedule: when?.isValid() ? 'at' : 'now',
    when: when?.isValid() ? when.format('YYYY-MM-DD HH:mm:00') : null,
  };
}

/**
 * Duplicar (spec 3 §4): a new campaign with the same audience, message, chip and interval; the id, counters,
 * status, dates and schedule are not copied (the draft has none, and the schedule goes back to Imediato).
 */
export function duplicateDraft(c: Campaign): CampaignDraft {
  return { ...draftOf(c), name: L.copy(c.name), schedule: 'now', when: null };
}

/** The audience fields as the calls take them: only the chosen kind's filled. */
export function audiencePayload(d: {
  audience_type: 'audience' | 'tags';
  audience: string | null;
  audience_tags: string[];
  audience_tags_skip: string[];
}) {
  const byTags = d.audience_type === 'tags';
  return {
    audience_type: d.audience_type,
    audience: byTags ? null : d.audience,
    audience_tags: byTags ? d.audience_tags : [],
    audience_tags_skip: byTags ? d.audience_tags_skip : [],
  };
}

/** The schedule as the calls take it: null for 'Imediato'; '' is a date asked for and not given (the rule names it). */
export function scheduledToOf(d: { schedule: 'now' | 'at'; when: string | null }): string | null {
  if (d.schedule !== 'at') return null;
  const when = d.when ? dayjs(d.when) : null;
  return when?.isValid() ? when.toISOString() : '';
}

/** The draft as the calls take it: only the chosen audience kind and message kind are sent filled. */
export function campaignPayload(d: CampaignDraft): Required<CampaignFields> {
  const text = d.message_type === 'text';
  return {
    name: d.name.trim(),
    chip: d.chip ?? '',
    ...audiencePayload(d),
    message_type: d.message_type,
    message: text ? d.message : [],
    flow: text ? null : d.flow,
    interval: d.interval,
    scheduledTo: scheduledToOf(d),
  };
}

type SaveVars = { _id: string; editing: boolean; fields: Required<CampaignFields> };

/** Creates (under the id named when the dialog opened) or edits; errors are left to the dialog. */
export function useSaveCampaign() {
  const client = useQueryClient();
  return useCallMutation(
    ({ _id, editing, fields }: SaveVars) =>
      editing ? api('update-campaign', { _id, ...fields }) : api('create-campaign', { _id, ...fields }),
    {
      successMessage: (_, vars) =>
        vars.editing ? campaignMessages.campaignUpdated : campaignMessages.campaignSaved,
      invalidates: [campaignsQuery.queryKey],
      onSuccess: () => {
        setTimeout(() => void refreshCampaigns(client), REFRESH_AFTER_SAVE_MS);
      },
    },
  );
}

export const useCancelCampaign = () =>
  useCallMutation((c: Campaign) => api('update-campaign', { _id: c._id, cancel_now: true }), {
    successMessage: campaignMessages.campaignCanceled,
    invalidates: [campaignsQuery.queryKey],
    toastError: true,
  });

export const useDeleteCampaign = () =>
  useCallMutation((c: Campaign) => api('update-campaign', { _id: c._id, filed: true }), {
    successMessage: campaignMessages.campaignDeleted,
    invalidates: [campaignsQuery.queryKey],
    toastError: true,
  });

export const useCampaignReport = (id: string) => useQuery(callQuery('get-campaign-report', { _id: id }));

/** Campanha_<name>_<date>.xlsx, saved by the browser. */
export async function downloadCampaignReport(id: string) {
  const file = await api('export-campaign-report', { _id: id });
  saveSheet(file);
}

/** The message variables an audience offers: its columns but telefone, as {nome}; the name's first word too. */
export const audienceVariables = (props: readonly string[]) =>
  props
    .filter((p) => p.trim() && p.trim().toLowerCase() !== 'telefone')
    .map((p) => p.trim())
    // The engine fills {nome:first} with the name's first word (fillVariables).
    .flatMap((p) => (p === 'nome' ? [`{${p}}`, `{${p}:first}`] : [`{${p}}`]));

/** `text` with `insert` put at the cursor (start..end replaced); answers the text and the new cursor. */
export function insertAt(text: string, insert: string, start: number, end = start) {
  const from = Math.max(0, Math.min(start, text.length));
  const to = Math.max(from, Math.min(end, text.length));
  return { text: text.slice(0, from) + insert + text.slice(to), cursor: from + insert.length };
}

/** Sent and failed of the people: the part of the campaign that is done, 0 to 100. */
export function progressPercent(
  p: Pick<CampaignProgress, 'sent_messages' | 'failed_messages' | 'people_count'>,
) {
  if (p.people_count <= 0) return 0;
  return Math.min(100, Math.round(((p.sent_messages + p.failed_messages) / p.people_count) * 100));
}
