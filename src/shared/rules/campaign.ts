// The campaign dialog's and the server's one rule (spec 3 §5 Campaign): each problem on its field, in the
// dialog's order. `scheduledTo` null or missing is 'Imediato'; '' is a date asked for but not given.
import type { CampaignFields } from '../contract/campaigns';
import { CAMPAIGN_INTERVALS } from '../contract/campaigns';
import { campaignMessages as M } from '../messages-campaigns';
import { type FieldError, fieldError } from './field-error';

/** The dialog's fields a rule (or the server) can point at. */
export type CampaignField =
  | 'name'
  | 'chip'
  | 'scheduledTo'
  | 'audience'
  | 'audience_tags'
  | 'message'
  | 'flow'
  | 'interval';

/** Every problem of a campaign's fields, in the dialog's order; empty when it may be saved. */
export function campaignProblems(input: CampaignFields): FieldError<CampaignField>[] {
  const problems: FieldError<CampaignField>[] = [];
  const add = (field: CampaignField, message: string) => problems.push(fieldError(field, message));
  if (!input.name?.trim()) add('name', M.campaignNameRequired);
  if (!input.chip) add('chip', M.campaignChipRequired);
  if (input.scheduledTo !== null && input.scheduledTo !== undefined) {
    if (Number.isNaN(Date.parse(input.scheduledTo))) add('scheduledTo', M.campaignScheduleRequired);
  }
  if ((input.audience_type ?? 'audience') === 'audience') {
    if (!input.audience) add('audience', M.campaignAudienceRequired);
  } else if (!input.audience_tags?.length) add('audience_tags', M.campaignTagsRequired);
  if ((input.message_type ?? 'text') === 'text') {
    const versions = input.message ?? [''];
    if (versions.length === 0 || versions.some((v) => !v.trim())) add('message', M.campaignVersionsBlank);
  } else if (!input.flow) add('flow', M.campaignFlowRequired);
  if (!(CAMPAIGN_INTERVALS as readonly number[]).includes(input.interval ?? CAMPAIGN_INTERVALS[1]))
    add('interval', M.campaignIntervalInvalid);
  return problems;
}
