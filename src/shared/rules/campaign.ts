// The campaign dialog's rules (spec 3 §5 Campaign (unofficial)): one function for the dialog and the server,
// the spec's messages exactly. What only the server knows (the chip is connected, the audience is this
// account's) is checked there after these.
import type { ChipRedirect } from '../constants';
import {
  CAMPAIGN_INTERVALS,
  type ConversationCreationRule,
  type TemplateParameter,
} from '../contract/campaigns';
import { messages } from '../messages';
import { officialCampaignMessages as official, campaignMessages as texts } from '../messages-campaigns';
import { type FieldError, fieldError } from './field-error';
import { templateParameters } from './template';

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
  if (!f.chip.trim()) out.push(fieldError('chip', messages.scheduleChipRequired));
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

// Official campaigns (spec 3 §5 Official campaign): the same chip, date and audience checks, then the template,
// its parameters and the conversation creation rule. What only the server knows (the chip is official and
// connected, the template is APPROVED now, the flows, chatbot and department are the account's, the image was
// uploaded here) is checked there after these.

export type OfficialCampaignField =
  | 'name'
  | 'chip'
  | 'scheduledTo'
  | 'audience'
  | 'audience_tags'
  | 'template'
  /** One parameter row: its position in templateParameters(template.components) (the dialog's row order). */
  | `template_parameters.${number}`
  | 'conversation_creation_rule'
  | 'redirect'
  | 'chatbot'
  | 'flow'
  | 'department';

export interface OfficialCampaignRuleInput {
  name: string;
  chip: string;
  audience_type: 'audience' | 'tags';
  audience?: string | null;
  audience_tags: readonly string[];
  /** An ISO date and time; null is 'Imediato'; missing or blank: nothing chosen yet. */
  scheduledTo?: string | null;
  template?: { name: string; components?: readonly Record<string, unknown>[] } | null;
  template_parameters: readonly Pick<
    TemplateParameter,
    'index' | 'location' | 'type' | 'var' | 'fallback' | 'link'
  >[];
  conversation_creation_rule?: ConversationCreationRule | null;
  redirect?: ChipRedirect | null;
  chatbot?: string | null;
  flow?: string | null;
  department?: string | null;
}

/** The given parameter for one the template needs (same place, number and kind), if any. */
export function matchingParameter<P extends Pick<TemplateParameter, 'index' | 'location' | 'type'>>(
  given: readonly P[],
  needed: Pick<TemplateParameter, 'index' | 'location' | 'type'>,
): P | undefined {
  return given.find(
    (p) => p.location === needed.location && p.index === needed.index && (p.type ?? 'text') === needed.type,
  );
}

/** Every problem of the official campaign dialog's fields, in the form's order (the server answers the first). */
export function officialCampaignProblems(f: OfficialCampaignRuleInput): FieldError<OfficialCampaignField>[] {
  const out: FieldError<OfficialCampaignField>[] = [];
  if (!f.name.trim()) out.push(fieldError('name', texts.campaignNameRequired));
  if (!f.chip.trim()) out.push(fieldError('chip', messages.scheduleChipRequired));
  if (campaignSchedule(f.scheduledTo) === 'invalid')
    out.push(fieldError('scheduledTo', texts.campaignScheduleRequired));
  if (f.audience_type === 'audience') {
    if (!f.audience) out.push(fieldError('audience', texts.campaignAudienceRequired));
  } else if (!f.audience_tags.length) out.push(fieldError('audience_tags', texts.campaignTagsRequired));
  if (!f.template?.name) out.push(fieldError('template', official.templateRequired));
  else
    templateParameters(f.template.components ?? []).forEach((needed, i) => {
      const given = matchingParameter(f.template_parameters, needed);
      if (needed.type === 'image') {
        if (!given?.link?.trim()) out.push(fieldError(`template_parameters.${i}`, official.imageRequired));
      } else if (!given || (!given.var?.trim() && !given.fallback?.trim()))
        out.push(fieldError(`template_parameters.${i}`, official.parameterRequired(needed.par)));
    });
  const rule = f.conversation_creation_rule;
  if (!rule) out.push(fieldError('conversation_creation_rule', official.conversationRuleRequired));
  else if (rule === 'all') {
    if (!f.redirect) out.push(fieldError('redirect', official.redirectRequired));
    else if (f.redirect === 'ai_chatbot' && !f.chatbot)
      out.push(fieldError('chatbot', official.chatbotRequired));
    else if (f.redirect === 'flow_chatbot' && !f.flow) out.push(fieldError('flow', official.flowRequired));
    if (!f.department) out.push(fieldError('department', official.departmentRequired));
  }
  return out;
}
