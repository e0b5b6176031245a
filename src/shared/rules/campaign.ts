// The campaign dialog's rules (spec 3 §5 Campaign (unofficial)): one function for the dialog and the server,
// the spec's messages exactly. What only the server knows (the chip is connected, the audience is this
// account's) is checked there after these.
import { CAMPAIGN_INTERVALS } from '../contract/campaigns';
import { campaignMessages as texts } from '../messages-campaigns';
import { type FieldError, fieldError } from './field-error';

export type CampaignField =
  | 'name'
  | 'chip'
  | 'scheduledTo'
  | 'audience'
  | 'audience_tags'
  | 'message'
  | 'flow'
  | 'interval';

export interface CampaignRuleInput {
  name: string;
  chip: string;
  audience_type: 'audience' | 'tags';
  audience?: string | null;
  audience_tags: readonly string[];
  message_type: 'text' | 'flow';
  message: readonly string[];
  flow?: string | null;
  interval: number;
  /** An ISO date and time; null is 'Imediato'; missing or blank: nothing chosen yet. */
  scheduledTo?: string | null;
}

/** The moment a campaign is due: null for 'Imediato', a Date, or 'invalid' when none was chosen. */
export function campaignSchedule(scheduledTo: string | null | undefined): Date | null | 'invalid' {
  if (scheduledTo === null) return null;
  if (!scheduledTo?.trim()) return 'invalid';
  const at = new Date(scheduledTo);
  return Number.isNaN(at.getTime()) ? 'invalid' : at;
}

/** Every problem of the dialog's fields, in the form's order (the dialog marks each; the server answers the first). */
export function campaignProblems(f: CampaignRuleInput): FieldError<CampaignField>[] {
  const out: FieldError<CampaignField>[] = [];
  if (!f.name.trim()) out.push(fieldError('name', texts.campaignNameRequired));
  if (!f.chip.trim()) out.push(fieldError('chip', texts.campaignChipRequired));
  if (campaignSchedule(f.scheduledTo) === 'invalid')
    out.push(fieldError('scheduledTo', texts.campaignScheduleRequired));
  if (f.audience_type === 'audience') {
    if (!f.audience) out.push(fieldError('audience', texts.campaignAudienceRequired));
  } else if (!f.audience_tags.length) out.push(fieldError('audience_tags', texts.campaignTagsRequired));
  if (f.message_type === 'text') {
    if (!f.message.length || f.message.some((m) => !m.trim()))
      out.push(fieldError('message', texts.campaignVersionsBlank));
  } else if (!f.flow) out.push(fieldError('flow', texts.campaignFlowRequired));
  if (!(CAMPAIGN_INTERVALS as readonly number[]).includes(f.interval))
    out.push(fieldError('interval', texts.campaignIntervalInvalid));
  return out;
}
