// The official campaigns screen's own logic (spec 3 §2.11, §4, §5 Official campaign): the approved templates
// only, one row per {{n}} and per quick reply (what was chosen kept when the template is picked again), the
// payload the dialog sends (the rule's own choices only), Duplicar, 'Enviando...' and the header image's checks.
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { campaignsQuery } from '@/app/features/campaigns/campaign-data';
import {
  approvedTemplates,
  audienceColumns,
  duplicateOfficialDraft,
  EMPTY_OFFICIAL_DRAFT,
  headerImageProblem,
  officialCampaignsQuery,
  officialDraftOf,
  officialPayload,
  parametersFor,
  sentLabel,
  templateRef,
} from '@/app/features/campaigns/official-data';
import { applyEvent } from '@/app/shell/use-realtime';
import { payloadsFor, templatePreview } from '@/app/widgets/template/template-parts';
import type { Campaign } from '@/shared/contract/campaigns';
import type { MessageTemplate } from '@/shared/contract/templates';
import {
  officialCampaignMessages as M,
  officialCampaignLabels as O,
  templateMessages,
} from '@/shared/messages-campaigns';
import { officialCampaignProblems } from '@/shared/rules/campaign';

const id = (c: string) => c.repeat(28);
const components: Record<string, unknown>[] = [
  { type: 'HEADER', format: 'TEXT', text: 'Olá {{1}}' },
  { type: 'BODY', text: 'Oi {{1}}, seu cupom é {{2}}. Até {{1}}!' },
  { type: 'FOOTER', text: 'Loja' },
  {
    type: 'BUTTONS',
    buttons: [
      { type: 'QUICK_REPLY', text: 'Quero' },
      { type: 'URL', text: 'Site', url: 'https://loja.example' },
      { type: 'QUICK_REPLY', text: 'Parar' },
    ],
  },
];
const template = (name: string, status: string): MessageTemplate => ({
  id: `tpl-${name}`,
  name,
  language: 'pt_BR',
  category: 'MARKETING',
  status,
  reason: null,
  components: components as MessageTemplate['components'],
  body: 'Oi {{1}}',
  buttons: [],
  default: false,
});

const campaign: Campaign = {
  _id: id('c'),
  name: 'Black Friday',
  chip: id('h'),
  audience_type: 'audience',
  audience: id('a'),
  audience_tags: [],
  audience_tags_skip: [],
  message_type: 'text',
  message: [],
  flow: id('f'),
  interval: 30,
  scheduledTo: '2030-01-02T15:30:00.000Z',
  status: 'finished',
  sent_messages: 40,
  failed_messages: 2,
  people_count: 42,
  created: '2029-12-30T10:00:00.000Z',
  finished: '2030-01-02T16:30:00.000Z',
  cancel_now: false,
  paused: false,
  failure: null,
  official: true,
  template: { name: 'promo', language: 'pt_BR', category: 'MARKETING', components },
  template_parameters: [
    { index: 1, par: '{{1}}', var: 'nome', fallback: 'cliente', location: 'header', type: 'text' },
    { index: 1, par: '{{1}}', var: 'nome', fallback: '', location: 'body', type: 'text' },
    { index: 2, par: '{{2}}', var: '', fallback: 'BF10', location: 'body', type: 'text' },
  ],
  template_payloads: [{ type: 'button', button: 'Quero', tip: '', payload: id('q') }],
  conversation_creation_rule: 'all',
  redirect: 'flow_chatbot',
  chatbot: null,
  department: id('d'),
  started: '2030-01-02T15:30:01.000Z',
  delivery_data: { sent: 40, delivered: 38, read: 20, failed: 2, replied: 5, clicked: 3 },
  filed: false,
};

describe('official campaign dialog', () => {
  it('offers only the approved templates', () => {
    const list = [template('a', 'APPROVED'), template('b', 'PENDING'), template('c', 'REJECTED')];
    expect(approvedTemplates(list).map((t) => t.name)).toEqual(['a']);
    expect(approvedTemplates(undefined)).toEqual([]);
  });

  it('asks one row per {{n}} of header and body, keeping what was chosen for the same place', () => {
    const rows = parametersFor(components);
    expect(rows.map((p) => `${p.location}${p.par}`)).toEqual(['header{{1}}', 'body{{1}}', 'body{{2}}']);
    expect(rows.every((p) => p.var === '' && p.fallback === '')).toBe(true);
    const kept = parametersFor(components, [
      { index: 2, par: '{{2}}', var: 'cupom', fallback: 'X', location: 'body', type: 'text' },
      { index: 2, par: '{{2}}', var: 'outro', fallback: 'Y', location: 'header', type: 'text' },
    ]);
    expect(kept[2]).toMatchObject({ var: 'cupom', fallback: 'X' });
    expect(kept[0]).toMatchObject({ var: '', fallback: '' });
  });

  it('asks an image for an image header', () => {
    const rows = parametersFor([
      { type: 'HEADER', format: 'IMAGE' },
      { type: 'BODY', text: 'Veja' },
    ]);
    expect(rows).toEqual([
      { index: 1, par: 'image', var: '', fallback: '', location: 'header', type: 'image', link: null },
    ]);
  });

  it('gives each quick reply (not the URL button) a flow, kept by the button text', () => {
    expect(payloadsFor(components, [{ type: 'button', button: 'Parar', tip: '', payload: id('p') }])).toEqual(
      [
        { type: 'button', button: 'Quero', tip: '', payload: null },
        { type: 'button', button: 'Parar', tip: '', payload: id('p') },
      ],
    );
    expect(payloadsFor([{ type: 'BODY', text: 'Oi' }])).toEqual([]);
  });

  it('previews the header, body and footer texts', () => {
    expect(templatePreview(components)).toEqual({
      header: 'Olá {{1}}',
      body: 'Oi {{1}}, seu cupom é {{2}}. Até {{1}}!',
      footer: 'Loja',
    });
  });

  it('offers the audience columns but telefone', () => {
    expect(audienceColumns(['telefone', 'nome', ' cupom ', ''])).toEqual(['nome', 'cupom']);
  });

  it('sends only the choices of the rule: on_response carries no type, flow or department', () => {
    const d = officialDraftOf(campaign);
    const all = officialPayload(d);
    expect(all).toMatchObject({
      redirect: 'flow_chatbot',
      flow: id('f'),
      chatbot: null,
      department: id('d'),
    });
    expect(new Date(all.scheduledTo ?? '').toISOString()).toBe('2030-01-02T15:30:00.000Z');
    const onResponse = officialPayload({ ...d, conversation_creation_rule: 'on_response' });
    expect(onResponse).toMatchObject({ redirect: null, flow: null, chatbot: null, department: null });
    const byTags = officialPayload({ ...d, audience_type: 'tags', audience_tags: [id('t')] });
    expect(byTags).toMatchObject({ audience: null, audience_tags: [id('t')] });
    expect(officialPayload({ ...d, schedule: 'at', when: null }).scheduledTo).toBe('');
  });

  it('is valid for the shared rule once complete, and names what is missing', () => {
    expect(officialCampaignProblems(officialPayload(officialDraftOf(campaign)))).toEqual([]);
    const empty = officialCampaignProblems(officialPayload(EMPTY_OFFICIAL_DRAFT)).map((p) => p.message);
    expect(empty).toContain(M.templateRequired);
    expect(empty).toContain(M.redirectRequired);
    expect(empty).toContain(M.departmentRequired);
    const unmapped = officialDraftOf({
      ...campaign,
      template_parameters: campaign.template_parameters.slice(0, 2),
    });
    expect(officialCampaignProblems(officialPayload(unmapped))).toEqual([
      { field: 'template_parameters.2', message: M.parameterRequired('{{2}}') },
    ]);
  });

  it('duplicates without the schedule, under a new name', () => {
    const d = duplicateOfficialDraft(campaign);
    expect(d).toMatchObject({ name: 'Cópia de Black Friday', schedule: 'now', when: null, chip: id('h') });
    expect(d.template?.name).toBe('promo');
    expect(d.template_payloads[0]?.payload).toBe(id('q'));
  });

  it('stores the template picked with its components', () => {
    expect(templateRef(template('a', 'APPROVED'))).toEqual({
      name: 'a',
      language: 'pt_BR',
      category: 'MARKETING',
      components,
    });
  });

  it("reads 'Enviando...' while sending, else the sent count", () => {
    expect(sentLabel({ ...campaign, status: 'started' })).toBe(O.sending);
    expect(sentLabel(campaign)).toBe('40');
    expect(sentLabel({ ...campaign, delivery_data: null })).toBe('40');
  });

  it('takes a header image only as jpeg or png up to 5 MB', () => {
    expect(headerImageProblem({ type: 'image/png', size: 1000 })).toBeNull();
    expect(headerImageProblem({ type: 'image/jpeg', size: 5 * 1024 * 1024 })).toBeNull();
    expect(headerImageProblem({ type: 'image/gif', size: 1000 })).toBe(O.imageTypeInvalid);
    expect(headerImageProblem({ type: 'image/png', size: 5 * 1024 * 1024 + 1 })).toBe(
      templateMessages.templateHeaderImageTooLarge,
    );
  });
});

describe('live refresh', () => {
  it('official_campaign_updated asks the official list again, not the regular one', () => {
    const client = new QueryClient();
    client.setQueryData(officialCampaignsQuery.queryKey, [campaign]);
    client.setQueryData(campaignsQuery.queryKey, []);
    applyEvent(client, 'u1', { type: 'official_campaign_updated', message: { _id: campaign._id } });
    expect(client.getQueryState(officialCampaignsQuery.queryKey)?.isInvalidated).toBe(true);
    expect(client.getQueryState(campaignsQuery.queryKey)?.isInvalidated).toBe(false);
  });
});
