// Webhooks on an official number (spec 3 §2.13, §5: templates offered to a webhook are APPROVED with fixed
// content): the templates listed for the screen, the one saved with the components Meta lists and a flow per
// quick reply, and an event sent as that template once, however often it is retried. Against the fake Graph API.
import { eq } from 'drizzle-orm';
import { afterAll, beforeEach, expect, it } from 'vitest';
import { webhookEvents } from '@/server/db/schema';
import { newId } from '@/shared/ids';
import { webhookMessages as M } from '@/shared/messages-webhooks';
import { type FakeGraph, startFakeGraph } from '../fakes/graph-api';
import { until } from './channel-helpers';
import { testServerPerFile } from './helpers';
import { graphEnv, officialChip, sendsPerPhone, WABA } from './official-helpers';

const graph: FakeGraph = await startFakeGraph();
const s = testServerPerFile(graphEnv(graph));
afterAll(() => graph.close());

const FIXED = {
  name: 'pedido_recebido',
  status: 'APPROVED',
  language: 'pt_BR',
  category: 'UTILITY',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Pedido recebido' },
    { type: 'BODY', text: 'Recebemos seu pedido. Obrigado!' },
    { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Acompanhar' }] },
  ],
};
const WITH_VARIABLE = {
  name: 'cupom',
  status: 'APPROVED',
  language: 'pt_BR',
  components: [{ type: 'BODY', text: 'Oi {{1}}', example: { body_text: [['Ana']] } }],
};
const PENDING = {
  name: 'pendente',
  status: 'PENDING',
  language: 'pt_BR',
  components: [{ type: 'BODY', text: 'x' }],
};

beforeEach(() => {
  graph.clear();
  graph.templates[WABA] = [WITH_VARIABLE, PENDING, FIXED];
});

it('offers only the fixed approved templates, stores the listed one with its button flows, sends it once', async () => {
  const { owner, chipId } = await officialChip(s.t, s.seed.departments.support);
  const listed = await s.t.call('get-webhook-templates', { chip: chipId }, owner);
  expect(listed.map((t) => t.name)).toEqual(['pedido_recebido']);
  expect(listed[0]?.preview).toBe('Pedido recebido\n\nRecebemos seu pedido. Obrigado!');

  const flows = await s.t.call('get-flows-by-user', {}, owner);
  const _id = newId();
  await s.t.call('create-or-update-webhook', { _id }, owner);
  const save = (template: { name: string; language: string }) =>
    s.t.post(
      'create-or-update-webhook',
      {
        _id,
        status: 'active',
        chip: chipId,
        template,
        template_payloads: [{ type: 'button', button: 'Acompanhar', tip: '', payload: flows[0]?._id }],
        conversation_creation_rule: 'on_response',
        fields: [{ name: 'telefone', origin: ['fone'], value: '' }],
      },
      owner,
    );
  // A template with a variable is refused.
  expect((await save({ name: 'cupom', language: 'pt_BR' })).body).toMatchObject({
    error: true,
    message: M.templateNotUsable,
    field: 'template',
  });
  const saved = (await save({ name: 'pedido_recebido', language: 'pt_BR' })).body as {
    error: false;
    message: {
      template: { components: unknown[] };
      template_payloads: { button: string; payload: string }[];
    };
  };
  expect(saved.error).toBe(false);
  expect(saved.message.template.components).toEqual(FIXED.components);
  expect(saved.message.template_payloads).toEqual([
    { type: 'button', button: 'Acompanhar', tip: '', payload: flows[0]?._id },
  ]);

  const body = JSON.stringify({ fone: '(21) 99876-5432' });
  const post = () =>
    fetch(`${s.t.url}/api/v1/webhooks/${_id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': 'pedido-1' },
      body,
    });
  const first = (await (await post()).json()) as { event: string };
  const row = await until(async () => {
    const [r] = await s.t.server.services.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.id, first.event));
    return r?.status === 'queued' ? undefined : r;
  }, 15_000);
  expect(row).toMatchObject({ status: 'sent', failure: null, phone: '5521998765432' });
  await until(() => sendsPerPhone(graph).get('5521998765432'), 15_000);
  expect(((await (await post()).json()) as { duplicate: boolean }).duplicate).toBe(true);
  await new Promise((r) => setTimeout(r, 1500));
  expect(sendsPerPhone(graph).get('5521998765432')).toBe(1);
});
