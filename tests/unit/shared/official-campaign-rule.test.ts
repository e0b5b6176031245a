// spec 3 §5 Official campaign: officialCampaignProblems, shared by the dialog and the server.
import { describe, expect, it } from 'vitest';
import { messages } from '../../../src/shared/messages';
import { campaignMessages, officialCampaignMessages as m } from '../../../src/shared/messages-campaigns';
import { type OfficialCampaignRuleInput, officialCampaignProblems } from '../../../src/shared/rules/campaign';

const template = {
  name: 'promo',
  components: [
    { type: 'HEADER', format: 'IMAGE' },
    { type: 'BODY', text: 'Oi {{1}}, seu cupom é {{2}}. Até {{1}}!' },
    { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Quero' }] },
  ],
};

type Parameter = OfficialCampaignRuleInput['template_parameters'][number];
const image: Parameter = {
  index: 1,
  location: 'header',
  type: 'image',
  var: '',
  fallback: '',
  link: '/media/x.jpg',
};
const first: Parameter = { index: 1, location: 'body', type: 'text', var: 'nome', fallback: '' };
const second: Parameter = { index: 2, location: 'body', type: 'text', var: '', fallback: 'BF10' };

const good: OfficialCampaignRuleInput = {
  name: 'Black friday',
  chip: 'CHIP',
  audience_type: 'audience',
  audience: 'AUD',
  audience_tags: [],
  scheduledTo: null,
  template,
  template_parameters: [image, first, second],
  conversation_creation_rule: 'all',
  redirect: 'flow_chatbot',
  flow: 'FLOW',
  department: 'DEP',
};

const problems = (f: Partial<OfficialCampaignRuleInput>) => officialCampaignProblems({ ...good, ...f });

describe('officialCampaignProblems', () => {
  it('accepts a complete campaign', () => {
    expect(problems({})).toEqual([]);
    expect(problems({ conversation_creation_rule: 'on_response', redirect: null, department: null })).toEqual(
      [],
    );
    expect(problems({ redirect: 'human', flow: null })).toEqual([]);
    expect(problems({ redirect: 'ai_chatbot', flow: null, chatbot: 'BOT' })).toEqual([]);
  });

  it('names every missing field with the spec text, in the form order', () => {
    const all = officialCampaignProblems({
      name: ' ',
      chip: '',
      audience_type: 'tags',
      audience_tags: [],
      scheduledTo: '',
      template: null,
      template_parameters: [],
      conversation_creation_rule: null,
    });
    expect(all).toEqual([
      { field: 'name', message: campaignMessages.campaignNameRequired },
      { field: 'chip', message: messages.scheduleChipRequired },
      { field: 'scheduledTo', message: campaignMessages.campaignScheduleRequired },
      { field: 'audience_tags', message: campaignMessages.campaignTagsRequired },
      { field: 'template', message: m.templateRequired },
      { field: 'conversation_creation_rule', message: m.conversationRuleRequired },
    ]);
    expect(problems({ audience: null })).toEqual([
      { field: 'audience', message: campaignMessages.campaignAudienceRequired },
    ]);
  });

  it('rule all: redirect, chatbot or flow, and department', () => {
    expect(problems({ redirect: null, department: null })).toEqual([
      { field: 'redirect', message: m.redirectRequired },
      { field: 'department', message: m.departmentRequired },
    ]);
    expect(problems({ redirect: 'ai_chatbot', chatbot: null })).toEqual([
      { field: 'chatbot', message: m.chatbotRequired },
    ]);
    expect(problems({ redirect: 'flow_chatbot', flow: null })).toEqual([
      { field: 'flow', message: m.flowRequired },
    ]);
  });

  it('every {{n}} needs a column or a fallback, and an image header its upload', () => {
    expect(problems({ template_parameters: [] })).toEqual([
      { field: 'template_parameters.0', message: m.imageRequired },
      { field: 'template_parameters.1', message: m.parameterRequired('{{1}}') },
      { field: 'template_parameters.2', message: m.parameterRequired('{{2}}') },
    ]);
    expect(
      problems({ template_parameters: [{ ...image, link: ' ' }, first, { ...second, fallback: '  ' }] }),
    ).toEqual([
      { field: 'template_parameters.0', message: m.imageRequired },
      { field: 'template_parameters.2', message: m.parameterRequired('{{2}}') },
    ]);
    // A parameter of the header is not the body's {{1}}.
    expect(problems({ template_parameters: [image, { ...first, location: 'header' }, second] })).toEqual([
      { field: 'template_parameters.1', message: m.parameterRequired('{{1}}') },
    ]);
  });
});
