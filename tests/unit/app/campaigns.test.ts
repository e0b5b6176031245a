// The campaigns screen's own logic: the dialog's draft of a campaign, Duplicar (spec 3 §4: no id, counters,
// status, dates or schedule), the payload the dialog sends and the shared rule's messages on their fields
// (spec 3 §5 Campaign), the variables an audience offers and where one is inserted, and the follow dialog's
// progress.
import { describe, expect, it } from 'vitest';
import {
  audienceVariables,
  campaignPayload,
  draftOf,
  duplicateDraft,
  EMPTY_DRAFT,
  insertAt,
  progressPercent,
} from '@/app/features/campaigns/campaign-data';
import type { Campaign } from '@/shared/contract/campaigns';
import { messages } from '@/shared/messages';
import { campaignMessages as M } from '@/shared/messages-campaigns';
import { campaignProblems } from '@/shared/rules/campaign';

const id = (c: string) => c.repeat(28);
const campaign: Campaign = {
  _id: id('c'),
  name: 'Black Friday',
  chip: id('h'),
  audience_type: 'tags',
  audience: null,
  audience_tags: [id('t')],
  audience_tags_skip: [id('s')],
  message_type: 'text',
  message: ['Oi {nome}', 'Olá {nome}'],
  flow: null,
  interval: 60,
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
  official: false,
  template: null,
  template_parameters: [],
  template_payloads: [],
  conversation_creation_rule: null,
  redirect: null,
  chatbot: null,
  department: null,
  started: null,
  delivery_data: null,
  filed: false,
};

describe('campaign draft', () => {
  it('edits a campaign as it is, its schedule in the picker', () => {
    const d = draftOf(campaign);
    expect(d).toMatchObject({
      name: 'Black Friday',
      chip: id('h'),
      audience_type: 'tags',
      audience_tags: [id('t')],
      audience_tags_skip: [id('s')],
      message: ['Oi {nome}', 'Olá {nome}'],
      interval: 60,
      schedule: 'at',
    });
    expect(new Date(campaignPayload(d).scheduledTo ?? '').toISOString()).toBe('2030-01-02T15:30:00.000Z');
  });

  it('duplicates the content, without the schedule (Imediato) and under a new name', () => {
    const d = duplicateDraft(campaign);
    expect(d.name).toBe('Cópia de Black Friday');
    expect(d.schedule).toBe('now');
    expect(d.when).toBeNull();
    expect(d.message).toEqual(campaign.message);
    expect(d.message).not.toBe(campaign.message);
    const payload = campaignPayload(d);
    expect(payload.scheduledTo).toBeNull();
    // Nothing of the old campaign's life goes out: no id, counters, status or dates.
    for (const key of ['_id', 'status', 'sent_messages', 'people_count', 'created', 'finished'])
      expect(payload).not.toHaveProperty(key);
  });

  it('sends only the chosen audience kind and message kind', () => {
    const byAudience = campaignPayload({
      ...draftOf(campaign),
      audience_type: 'audience',
      audience: id('a'),
      message_type: 'flow',
      flow: id('f'),
    });
    expect(byAudience).toMatchObject({
      audience: id('a'),
      audience_tags: [],
      audience_tags_skip: [],
      message: [],
      flow: id('f'),
    });
    const byTags = campaignPayload(draftOf(campaign));
    expect(byTags).toMatchObject({ audience: null, flow: null, audience_tags_skip: [id('s')] });
  });
});

describe('campaign rule on the dialog payload', () => {
  const first = (d: typeof EMPTY_DRAFT) => campaignProblems(campaignPayload(d))[0] ?? null;
  const valid = { ...EMPTY_DRAFT, name: 'Natal', chip: id('h'), audience: id('a'), message: ['Oi'] };

  it('a complete campaign has no problem; Imediato needs no date', () => {
    expect(campaignProblems(campaignPayload(valid))).toEqual([]);
  });

  it('each message of spec 3 §5 on its field, in the dialog order', () => {
    expect(first(EMPTY_DRAFT)).toEqual({ field: 'name', message: M.campaignNameRequired });
    expect(first({ ...valid, chip: null })).toEqual({
      field: 'chip',
      message: messages.scheduleChipRequired,
    });
    expect(first({ ...valid, schedule: 'at', when: null })).toEqual({
      field: 'scheduledTo',
      message: M.campaignScheduleRequired,
    });
    expect(first({ ...valid, audience: null })).toEqual({
      field: 'audience',
      message: M.campaignAudienceRequired,
    });
    expect(first({ ...valid, audience_type: 'tags' })).toEqual({
      field: 'audience_tags',
      message: M.campaignTagsRequired,
    });
    expect(first({ ...valid, message: ['Oi', '  '] })).toEqual({
      field: 'message',
      message: M.campaignVersionsBlank,
    });
    expect(first({ ...valid, message_type: 'flow' })).toEqual({
      field: 'flow',
      message: M.campaignFlowRequired,
    });
    expect(first({ ...valid, interval: 45 })).toEqual({
      field: 'interval',
      message: M.campaignIntervalInvalid,
    });
  });

  it('the spec texts, exactly', () => {
    expect(messages.scheduleChipRequired).toBe('Chip de envio necessário');
    expect(M.campaignScheduleRequired).toBe('Data e hora de envio necessária');
    expect(M.campaignAudienceRequired).toBe('Audiência necessária para formar o público de envio');
    expect(M.campaignTagsRequired).toBe('Tags necessárias para formar o público de envio');
    expect(M.campaignVersionsBlank).toBe(
      'As versões de mensagem não podem estar vazias. Escreva o texto de todas as versões.',
    );
    expect(M.campaignFlowRequired).toBe('É necessário selecionar um fluxo.');
  });
});

describe('variables', () => {
  it('are the audience columns but telefone', () => {
    expect(audienceVariables(['telefone', 'nome', 'cidade', ' '])).toEqual([
      '{nome}',
      '{nome:first}',
      '{cidade}',
    ]);
  });

  it('go where the cursor is, replacing a selection', () => {
    expect(insertAt('Oi , tudo bem?', '{nome}', 3)).toEqual({ text: 'Oi {nome}, tudo bem?', cursor: 9 });
    expect(insertAt('Oi fulano!', '{nome}', 3, 9)).toEqual({ text: 'Oi {nome}!', cursor: 9 });
    expect(insertAt('Oi', '{nome}', 99)).toEqual({ text: 'Oi{nome}', cursor: 8 });
  });
});

describe('follow progress', () => {
  it('counts sent and failed of the people', () => {
    expect(progressPercent({ sent_messages: 1, failed_messages: 1, people_count: 4 })).toBe(50);
    expect(progressPercent({ sent_messages: 0, failed_messages: 0, people_count: 0 })).toBe(0);
    expect(progressPercent({ sent_messages: 5, failed_messages: 0, people_count: 3 })).toBe(100);
  });
});
