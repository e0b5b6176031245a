// Flows on the server (spec 3 §2.8, §3 Flow, §4 Flow import, §5 Flow): the calls and their rules, the account
// boundary and the access area, import and export, the plan's max_flows (also under concurrent creations),
// and the places that name a flow: chips, transfer, scheduling and the history.
import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accounts, chips, conversations, flows, scheduledMessages, users } from '@/server/db/schema';
import { createAccount } from '@/server/domains/accounts/accounts.service';
import { hashPassword } from '@/server/domains/auth/passwords';
import { runDue } from '@/server/jobs/scheduled-messages';
import { DEMO_PASSWORD } from '@/server/seed/demo';
import { ACCESS_AREAS } from '@/shared/constants';
import type { Flow } from '@/shared/contract/flows';
import { labels, messages as texts } from '@/shared/messages';
import { connectedSimulatorChip, until } from './channel-helpers';
import { flowRun } from './flow-helpers';
import { testServerPerFile } from './helpers';

const s = testServerPerFile();
const db = () => s.t.server.services.db;

type Node = { id: string; type: string; position: { x: number; y: number }; data: Record<string, unknown> };
const at = { x: 0, y: 0 };
const start: Node = { id: 'start', type: 'start', position: at, data: {} };
const message = (id: string, text = 'Olá'): Node => ({
  id,
  type: 'message',
  position: at,
  data: { kind: 'text', text, typing_seconds: 0 },
});
const buttons = (id: string, titles: string[]): Node => ({
  id,
  type: 'buttons',
  position: at,
  data: { text: 'Escolha', options: titles.map((title, i) => ({ id: `${id}_o${i}`, title })) },
});
const edge = (source: string, target: string, sourceHandle = 'next') => ({
  id: `e_${source}_${sourceHandle}_${target}`,
  source,
  sourceHandle,
  target,
});

async function accountB() {
  const { accountId } = await createAccount(db(), {
    account: { name: 'Conta B', maxChannels: 5, maxUsers: 10, maxFlows: 10 },
    owner: {
      name: 'Dono B',
      email: 'dono@b.test',
      passwordHash: await hashPassword(DEMO_PASSWORD),
      accessAreas: [...ACCESS_AREAS],
    },
  });
  const owner = await s.t.login('dono@b.test');
  const flow = await s.t.call('create-or-update-flow', { name: 'Fluxo de B' }, owner);
  return { accountId, owner, flow };
}

const refusal = async (call: string, body: unknown, token: string) => {
  const r = await s.t.post(call, body, token);
  expect(r.body.error, `${call} ${JSON.stringify(body).slice(0, 200)}`).toBe(true);
  return r.body as { error: true; message: string; field?: string };
};

const liveFlows = async (accountId: string) =>
  (
    await db()
      .select({ n: count() })
      .from(flows)
      .where(and(eq(flows.accountId, accountId), eq(flows.filed, false)))
  )[0]?.n ?? 0;

const demoFlow = async (owner: string) => {
  const list = await s.t.call('get-flows-by-user', {}, owner);
  const found = list.find((f) => f.name === 'Boas-vindas');
  if (!found) throw new Error('no demo flow');
  return found;
};

describe('flow calls', () => {
  it('create, list newest first, open, save parts, delete', async () => {
    const owner = await s.t.login('dono@demo.com');
    const created = await s.t.call('create-or-update-flow', { name: '  Pós-venda  ' }, owner);
    expect(created).toMatchObject({
      name: 'Pós-venda',
      account: s.seed.accountId,
      trigger: false,
      keywords: [],
      trigger_human: false,
      disabled_chips: [],
      filed: false,
      nodes: [{ id: 'start', type: 'start', data: {} }],
      connections: [],
    });
    expect(new Date(created.created).toISOString()).toBe(created.created);

    const list = await s.t.call('get-flows-by-user', {}, owner);
    expect(list.map((f) => f.name)).toEqual(['Pós-venda', 'Boas-vindas']);
    expect(list[0]).toEqual({
      _id: created._id,
      name: 'Pós-venda',
      trigger: false,
      keywords: [],
      node_count: 1,
      created: created.created,
    });
    expect(await s.t.call('get-flow', { _id: created._id }, owner)).toEqual(created);

    // A save of the graph alone keeps the name; a rename alone keeps the graph.
    const graph = { nodes: [start, message('hi')], connections: [edge('start', 'hi')] };
    const saved = await s.t.call('create-or-update-flow', { _id: created._id, ...graph }, owner);
    expect(saved).toMatchObject({ name: 'Pós-venda', ...graph });
    expect(await s.t.call('create-or-update-flow', { _id: created._id }, owner)).toEqual(saved);
    const renamed = await s.t.call('create-or-update-flow', { _id: created._id, name: 'Pós' }, owner);
    expect(renamed).toMatchObject({ name: 'Pós', ...graph });
    const triggered = await s.t.call(
      'create-or-update-flow',
      { _id: created._id, trigger: true, keywords: [' oi ', 'OI', '', 'menu'], trigger_human: true },
      owner,
    );
    expect(triggered).toMatchObject({ trigger: true, keywords: ['oi', 'menu'], trigger_human: true });

    const filed = await s.t.call('create-or-update-flow', { _id: created._id, filed: true }, owner);
    expect(filed.filed).toBe(true);
    expect((await s.t.call('get-flows-by-user', {}, owner)).map((f) => f.name)).toEqual(['Boas-vindas']);
    expect(await refusal('get-flow', { _id: created._id }, owner)).toMatchObject({
      message: texts.flowNotFound,
    });
    expect(
      (await refusal('create-or-update-flow', { _id: created._id, name: 'De volta' }, owner)).message,
    ).toBe(texts.flowNotFound);
  });

  it('duplicate: a new name is required; the copy has the graph and is a flow of its own', async () => {
    const owner = await s.t.login('dono@demo.com');
    const source = await s.t.call('get-flow', { _id: (await demoFlow(owner))._id }, owner);
    expect(await refusal('duplicate-flow', { _id: source._id, name: '  ' }, owner)).toMatchObject({
      message: texts.nameRequired,
      field: 'name',
    });
    const copy = await s.t.call('duplicate-flow', { _id: source._id, name: 'Cópia' }, owner);
    expect(copy._id).not.toBe(source._id);
    expect(copy).toMatchObject({ name: 'Cópia', nodes: source.nodes, connections: source.connections });
    await s.t.call('create-or-update-flow', { _id: copy._id, filed: true }, owner);
    expect((await s.t.call('get-flow', { _id: source._id }, owner)).filed).toBe(false);
  });

  it('another account’s flow is not found by any call, and stays as it was', async () => {
    const b = await accountB();
    const owner = await s.t.login('dono@demo.com');
    const id = b.flow._id;
    for (const [call, body] of [
      ['get-flow', { _id: id }],
      ['create-or-update-flow', { _id: id, name: 'Roubado' }],
      ['create-or-update-flow', { _id: id, nodes: [start], connections: [] }],
      ['create-or-update-flow', { _id: id, filed: true }],
      ['duplicate-flow', { _id: id, name: 'Cópia' }],
    ] as const)
      expect((await refusal(call, body, owner)).message).toBe(texts.flowNotFound);
    expect(await s.t.call('get-flow', { _id: id }, b.owner)).toEqual(b.flow);
    expect((await s.t.call('get-flows-by-user', {}, owner)).some((f) => f._id === id)).toBe(false);
  });

  it('the flows area: attendants and a manager without it are refused; everyone may list', async () => {
    const owner = await s.t.login('dono@demo.com');
    const { _id } = await demoFlow(owner);
    await db()
      .update(users)
      .set({ accessAreas: ACCESS_AREAS.filter((a) => a !== 'flows') })
      .where(eq(users.email, 'gerente@demo.com'));
    for (const email of ['atendente@demo.com', 'gerente@demo.com']) {
      const token = await s.t.login(email);
      for (const [call, body] of [
        ['get-flow', { _id }],
        ['create-or-update-flow', { name: 'X' }],
        ['create-or-update-flow', { _id, filed: true }],
        ['duplicate-flow', { _id, name: 'X' }],
        ['import-flow', { file: {} }],
      ] as const)
        expect((await refusal(call, body, token)).message, `${email} ${call}`).toBe(
          texts.insufficientPermissions,
        );
      expect((await s.t.call('get-flows-by-user', {}, token)).map((f) => f._id)).toEqual([_id]);
    }
    expect(await liveFlows(s.seed.accountId)).toBe(1);
  });

  it('refuses each broken input with its message and changes nothing', async () => {
    const owner = await s.t.login('dono@demo.com');
    expect(await refusal('create-or-update-flow', { name: ' ' }, owner)).toMatchObject({
      message: texts.nameRequired,
      field: 'name',
    });
    expect(await refusal('create-or-update-flow', {}, owner)).toMatchObject({ field: 'name' });
    const flow = await s.t.call('create-or-update-flow', { name: 'Alvo' }, owner);
    expect(await refusal('create-or-update-flow', { _id: flow._id, name: '' }, owner)).toMatchObject({
      message: texts.nameRequired,
      field: 'name',
    });
    expect(
      await refusal('create-or-update-flow', { _id: flow._id, trigger: true, keywords: [' '] }, owner),
    ).toMatchObject({ message: texts.flowKeywordRequired, field: 'keywords' });
    expect(await refusal('create-or-update-flow', { name: 'Gatilho', trigger: true }, owner)).toMatchObject({
      message: texts.flowKeywordRequired,
      field: 'keywords',
    });

    const graphs: [string, { nodes: Node[]; connections: ReturnType<typeof edge>[] }, string][] = [
      [
        'unknown node type',
        { nodes: [start, { id: 'x', type: 'teleport', position: at, data: {} }], connections: [] },
        texts.flowUnknownNode('teleport'),
      ],
      [
        'dangling edge',
        { nodes: [start, message('a')], connections: [edge('start', 'a'), edge('a', 'ghost')] },
        texts.flowDanglingEdge,
      ],
      [
        'cycle without a wait',
        {
          nodes: [start, message('a'), message('b')],
          connections: [edge('start', 'a'), edge('a', 'b'), edge('b', 'a')],
        },
        texts.flowCycleWithoutWait,
      ],
      [
        'duplicate option titles',
        { nodes: [start, buttons('menu', ['Sim', 'sim'])], connections: [edge('start', 'menu')] },
        texts.flowOptionTitleTaken,
      ],
      [
        'more than 3 quick replies',
        { nodes: [start, buttons('menu', ['A', 'B', 'C', 'D'])], connections: [edge('start', 'menu')] },
        texts.flowMaxQuickReplies,
      ],
      [
        'percent out of range',
        {
          nodes: [
            start,
            {
              id: 'r',
              type: 'randomizer',
              position: at,
              data: {
                branches: [
                  { id: 'a', percent: 0 },
                  { id: 'b', percent: 100 },
                ],
              },
            },
          ],
          connections: [edge('start', 'r')],
        },
        texts.flowPercentRange,
      ],
      ['no Início', { nodes: [message('a')], connections: [] }, texts.flowNeedsStart],
      [
        'a tag of no tag',
        {
          nodes: [
            start,
            { id: 't', type: 'add_tag', position: at, data: { tags: ['0000000000000000000000000000'] } },
          ],
          connections: [edge('start', 't')],
        },
        texts.tagNotFound,
      ],
      [
        'a redirect to no department',
        {
          nodes: [
            start,
            {
              id: 'r',
              type: 'redirect',
              position: at,
              data: { to: 'human', value: '0000000000000000000000000000' },
            },
          ],
          connections: [edge('start', 'r')],
        },
        texts.departmentNotFound,
      ],
    ];
    for (const [name, graph, problem] of graphs) {
      const r = await refusal('create-or-update-flow', { _id: flow._id, ...graph }, owner);
      expect(r.message, name).toBe(texts.flowHasErrorsNamed(problem));
    }
    // A cycle through a question (the run pauses there) is fine.
    const question: Node = {
      id: 'q',
      type: 'question',
      position: at,
      data: { text: 'Seu e-mail?', validation: 'email', variable: 'email' },
    };
    await s.t.call(
      'create-or-update-flow',
      {
        _id: flow._id,
        nodes: [start, message('a'), question],
        connections: [edge('start', 'a'), edge('a', 'q'), edge('q', 'a')],
      },
      owner,
    );

    const b = await accountB();
    const [bChip] = await db()
      .insert(chips)
      .values({
        id: '0BCHIP0000000000000000000000',
        accountId: b.accountId,
        name: 'Chip B',
        redirect: 'human',
      })
      .returning();
    expect(
      await refusal('create-or-update-flow', { _id: flow._id, disabled_chips: [bChip?.id] }, owner),
    ).toMatchObject({ message: texts.flowChipNotFound, field: 'disabled_chips' });
    const after = await s.t.call('get-flow', { _id: flow._id }, owner);
    expect(after).toMatchObject({ name: 'Alvo', trigger: false, disabled_chips: [] });
    expect(after.nodes.map((n) => n.id)).toEqual(['start', 'a', 'q']);
  });

  it('a redirect back to the flow itself, directly or through another flow, needs a pause on the way', async () => {
    const owner = await s.t.login('dono@demo.com');
    const x = await s.t.call('create-or-update-flow', { name: 'X' }, owner);
    const y = await s.t.call('create-or-update-flow', { name: 'Y' }, owner);
    const redirectTo = (flow: string): Node => ({
      id: 'go',
      type: 'redirect',
      position: at,
      data: { to: 'flow', value: flow },
    });
    const straight = (flow: string) => ({
      nodes: [start, redirectTo(flow)],
      connections: [edge('start', 'go')],
    });
    const cycle = texts.flowHasErrorsNamed(texts.flowCycleWithoutWait);
    expect((await refusal('create-or-update-flow', { _id: x._id, ...straight(x._id) }, owner)).message).toBe(
      cycle,
    );
    await s.t.call('create-or-update-flow', { _id: x._id, ...straight(y._id) }, owner);
    expect((await refusal('create-or-update-flow', { _id: y._id, ...straight(x._id) }, owner)).message).toBe(
      cycle,
    );
    // A question before the redirect: each round waits for the customer.
    const question: Node = { id: 'q', type: 'question', position: at, data: { text: 'De novo?' } };
    await s.t.call(
      'create-or-update-flow',
      {
        _id: y._id,
        nodes: [start, question, redirectTo(x._id)],
        connections: [edge('start', 'q'), edge('q', 'go')],
      },
      owner,
    );
  });
});

describe('import and export', () => {
  const tagged = async (owner: string) => {
    const tag = await s.t.call(
      'create-or-update-tag',
      { name: 'VIP', color: '#FF0000', auto_tag: false, keywords: [] },
      owner,
    );
    const { chip } = await connectedSimulatorChip(s.t, owner, { department: s.seed.departments.support });
    const nodes: Node[] = [
      start,
      { id: 'add', type: 'add_tag', position: at, data: { tags: [tag._id] } },
      {
        id: 'cond',
        type: 'tag_condition',
        position: { x: 10, y: 20 },
        data: { tags: [tag._id], mode: 'any' },
      },
      { id: 'rm', type: 'remove_tag', position: at, data: { tags: [tag._id] } },
      { id: 'human', type: 'redirect', position: at, data: { to: 'human', value: s.seed.departments.sales } },
    ];
    const connections = [
      edge('start', 'add'),
      edge('add', 'cond'),
      edge('cond', 'rm', 'yes'),
      edge('cond', 'human', 'no'),
    ];
    const flow = await s.t.call('create-or-update-flow', { name: 'Etiquetas' }, owner);
    return s.t.call(
      'create-or-update-flow',
      {
        _id: flow._id,
        nodes,
        connections,
        trigger: true,
        keywords: ['vip'],
        disabled_chips: [chip._id],
      },
      owner,
    );
  };

  it('round trip in the same account keeps everything but the id, and names the copy as a duplicate', async () => {
    const owner = await s.t.login('dono@demo.com');
    const exported: Flow = await tagged(owner);
    const imported = await s.t.call('import-flow', { file: JSON.parse(JSON.stringify(exported)) }, owner);
    expect(imported._id).not.toBe(exported._id);
    const { _id, created, name, ...rest } = exported;
    expect(imported).toMatchObject({ ...rest, name: labels.flows.copy(name) });
    // Once more: the copy's name is taken too.
    const again = await s.t.call('import-flow', { file: exported }, owner);
    expect(again.name).toBe(labels.flows.copy(labels.flows.copy(name)));
  });

  it('into another account: tags, redirect targets and disabled chips are dropped', async () => {
    const owner = await s.t.login('dono@demo.com');
    const exported = await tagged(owner);
    const b = await accountB();
    const imported = await s.t.call('import-flow', { file: exported }, b.owner);
    expect(imported).toMatchObject({
      account: b.accountId,
      name: 'Etiquetas',
      trigger: true,
      keywords: ['vip'],
      disabled_chips: [],
      connections: exported.connections,
    });
    const data = Object.fromEntries(imported.nodes.map((n) => [n.id, n.data]));
    expect(data).toEqual({
      start: {},
      add: { tags: [] },
      cond: { tags: [], mode: 'any' },
      rm: { tags: [] },
      human: { to: 'human', value: null },
    });
    expect(imported.nodes.find((n) => n.id === 'cond')?.position).toEqual({ x: 10, y: 20 });
    // What is left to complete is the editor's to mark: a save of the graph as it is names it.
    const resave = await refusal(
      'create-or-update-flow',
      { _id: imported._id, nodes: imported.nodes, connections: imported.connections },
      b.owner,
    );
    expect(resave.message).toBe(texts.flowHasErrorsNamed(texts.flowTagsRequired));
    // Other changes still save.
    expect(
      (await s.t.call('create-or-update-flow', { _id: imported._id, name: 'Etiquetas B' }, b.owner)).name,
    ).toBe('Etiquetas B');
  });

  it('refuses a file of the wrong shape, a broken graph, and a 5 MB body, in pt-BR', async () => {
    const owner = await s.t.login('dono@demo.com');
    const before = await liveFlows(s.seed.accountId);
    for (const file of [
      null,
      'texto',
      [],
      { name: 'Sem nós', account: s.seed.accountId },
      { account: s.seed.accountId, name: 'X', nodes: 'muitos', connections: [] },
    ])
      expect((await refusal('import-flow', { file }, owner)).message).toBe(texts.flowFileInvalid);
    const broken = {
      account: 'outra',
      name: 'Quebrado',
      nodes: [start, message('a'), message('b')],
      connections: [edge('start', 'a'), edge('a', 'b'), edge('b', 'a')],
    };
    expect((await refusal('import-flow', { file: broken }, owner)).message).toBe(
      texts.flowHasErrorsNamed(texts.flowCycleWithoutWait),
    );
    const unknown = {
      ...broken,
      nodes: [start, { id: 'z', type: 'zap', position: at, data: {} }],
      connections: [],
    };
    expect((await refusal('import-flow', { file: unknown }, owner)).message).toBe(
      texts.flowHasErrorsNamed(texts.flowUnknownNode('zap')),
    );

    const huge = {
      ...broken,
      connections: [],
      nodes: [start, ...Array.from({ length: 500 }, (_, i) => message(`m${i}`, 'x'.repeat(4000)))],
      padding: 'y'.repeat(3 * 1024 * 1024),
    };
    const r = await s.t.post('import-flow', { file: huge }, owner);
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ error: true, message: texts.flowFileTooLarge });
    expect(await liveFlows(s.seed.accountId)).toBe(before);
  });
});

describe('max_flows', () => {
  const setMax = (n: number) =>
    db().update(accounts).set({ maxFlows: n }).where(eq(accounts.id, s.seed.accountId));

  it('create, duplicate and import stop at the plan’s limit; a deleted flow frees its place', async () => {
    const owner = await s.t.login('dono@demo.com');
    await setMax(2);
    const demo = await demoFlow(owner);
    const second = await s.t.call('create-or-update-flow', { name: 'Segundo' }, owner);
    const file = await s.t.call('get-flow', { _id: demo._id }, owner);
    for (const [call, body] of [
      ['create-or-update-flow', { name: 'Terceiro' }],
      ['duplicate-flow', { _id: demo._id, name: 'Cópia' }],
      ['import-flow', { file }],
    ] as const)
      expect((await refusal(call, body, owner)).message).toBe(texts.flowLimitReached(2));
    // Saving an existing flow is not a new one.
    await s.t.call('create-or-update-flow', { _id: second._id, name: 'Segundo!' }, owner);
    await s.t.call('create-or-update-flow', { _id: second._id, filed: true }, owner);
    await s.t.call('duplicate-flow', { _id: demo._id, name: 'Cópia' }, owner);
    expect(await liveFlows(s.seed.accountId)).toBe(2);
    await setMax(1);
    expect((await refusal('create-or-update-flow', { name: 'Mais um' }, owner)).message).toBe(
      texts.flowLimitReached(1),
    );
  });

  it(`holds under concurrent creations (${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, async () => {
    const owner = await s.t.login('dono@demo.com');
    const manager = await s.t.login('gerente@demo.com');
    const demo = await demoFlow(owner);
    const file = await s.t.call('get-flow', { _id: demo._id }, owner);
    for (const max of [3, 6]) {
      await setMax(max);
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) => {
          const token = i % 2 ? owner : manager;
          if (i % 3 === 0) return s.t.post('create-or-update-flow', { name: `Novo ${i}` }, token);
          if (i % 3 === 1) return s.t.post('duplicate-flow', { _id: demo._id, name: `Cópia ${i}` }, token);
          return s.t.post('import-flow', { file }, token);
        }),
      );
      const used = await liveFlows(s.seed.accountId);
      expect(used).toBe(max);
      const refused = results.filter((r) => r.body.error);
      expect(refused.map((r) => r.body.message)).toEqual(refused.map(() => texts.flowLimitReached(max)));
      expect(results.length - refused.length).toBe(max - (max === 3 ? 1 : 3));
    }
  }, 60_000);
});

describe('the places that name a flow', () => {
  it('chips take a live flow of the account; deleting it puts its chips on human service', async () => {
    const owner = await s.t.login('dono@demo.com');
    const demo = await demoFlow(owner);
    const b = await accountB();
    const chip = {
      name: 'Robo',
      redirect: 'flow_chatbot',
      department: s.seed.departments.support,
    };
    expect(await refusal('create-or-update-chip', { ...chip, flow: b.flow._id }, owner)).toMatchObject({
      message: texts.flowNotFound,
      field: 'flow',
    });
    const made = await s.t.call('create-or-update-chip', { ...chip, flow: demo._id }, owner);
    expect(made).toMatchObject({ redirect: 'flow_chatbot', flow: demo._id });

    await s.t.call('create-or-update-flow', { _id: demo._id, filed: true }, owner);
    const [after] = await s.t.call('get-chip-numbers-by-user', {}, owner);
    expect(after).toMatchObject({ _id: made._id, redirect: 'human', flow: null });
    expect(
      await refusal('create-or-update-chip', { ...chip, _id: made._id, flow: demo._id }, owner),
    ).toMatchObject({ message: texts.flowNotFound, field: 'flow' });
  });

  it('transfer to a flow: the flow serves it from the start; the history names the flow', async () => {
    const owner = await s.t.login('dono@demo.com');
    const demo = await demoFlow(owner);
    const b = await accountB();
    const { chip, simulatorToken } = await connectedSimulatorChip(s.t, owner, {
      name: 'Loja',
      department: s.seed.departments.support,
    });
    await s.t.call('simulator-send', {
      token: simulatorToken,
      phone: '5511987650000',
      name: 'Cliente',
      id: 'first-message-flows',
      type: 'text',
      text: 'Oi',
    });
    const conversation = await until(
      async () => (await db().select().from(conversations).where(eq(conversations.chipId, chip._id)))[0],
    );
    expect(
      await refusal(
        'transfer-conversation',
        { conversation_id: conversation.id, type: 'flow', flow: b.flow._id },
        owner,
      ),
    ).toMatchObject({ message: texts.flowNotFound, field: 'flow' });
    expect(
      (await db().select().from(conversations).where(eq(conversations.id, conversation.id)))[0],
    ).toMatchObject({ isManual: conversation.isManual, flowId: null });

    await s.t.call(
      'transfer-conversation',
      { conversation_id: conversation.id, type: 'flow', flow: demo._id },
      owner,
    );
    const [moved] = await db().select().from(conversations).where(eq(conversations.id, conversation.id));
    expect(moved).toMatchObject({
      isManual: false,
      chatbotType: 'flow_chatbot',
      flowId: demo._id,
      departmentId: s.seed.departments.support,
    });
    // From the start: a fresh run of the flow (the engine's job may already have taken its first step).
    const { position } = await flowRun(s.t.server.services, conversation.id);
    expect(moved?.startFlow ? moved.startFlow : { flow: position?.flow, step: position?.step }).toEqual(
      moved?.startFlow ? true : { flow: demo._id, step: 1 },
    );

    const history = async () =>
      (
        await s.t.call(
          'get-conversations-by-user',
          { filter: { types: ['chatbot', 'human'] }, page: 1, itemsPerPage: 10 },
          owner,
        )
      ).conversations.find((c) => c._id === conversation.id);
    expect(await history()).toMatchObject({
      chip_name: 'Loja',
      chatbot_name: 'Boas-vindas',
      chatbot_deleted: false,
    });
    await s.t.call('create-or-update-flow', { _id: demo._id, filed: true }, owner);
    expect(await history()).toMatchObject({ chip_name: 'Loja', chatbot_name: null, chatbot_deleted: true });
  });

  it('scheduling sends a live flow of the account: at its time the conversation is handed to it', async () => {
    const owner = await s.t.login('dono@demo.com');
    const demo = await demoFlow(owner);
    const b = await accountB();
    const { chip } = await connectedSimulatorChip(s.t, owner, { department: s.seed.departments.support });
    const body = {
      chip: chip._id,
      country_code: '55',
      to: '11987651111',
      type: 'flow',
      message: '',
      scheduledTo: new Date(Date.now() + 3600_000).toISOString(),
    };
    expect(await refusal('create-scheduled-message', { ...body, flow: b.flow._id }, owner)).toMatchObject({
      message: texts.flowNotFound,
      field: 'flow',
    });
    const item = await s.t.call('create-scheduled-message', { ...body, flow: demo._id }, owner);
    expect(item).toMatchObject({ type: 'flow', flow: demo._id, status: 'scheduled' });

    await db()
      .update(scheduledMessages)
      .set({ scheduledTo: new Date(Date.now() - 1000) })
      .where(eq(scheduledMessages.id, item._id));
    await runDue(s.t.server.services);
    const [row] = await db().select().from(scheduledMessages).where(eq(scheduledMessages.id, item._id));
    expect(row).toMatchObject({ status: 'sent', failure: null });
    const [conversation] = await db().select().from(conversations).where(eq(conversations.chipId, chip._id));
    expect(conversation).toMatchObject({ isManual: false, chatbotType: 'flow_chatbot', flowId: demo._id });

    // A flow deleted before its time: the row records why nothing went out.
    const later = await s.t.call(
      'create-scheduled-message',
      { ...body, to: '11987652222', flow: demo._id },
      owner,
    );
    await s.t.call('create-or-update-flow', { _id: demo._id, filed: true }, owner);
    await db()
      .update(scheduledMessages)
      .set({ scheduledTo: new Date(Date.now() - 1000) })
      .where(eq(scheduledMessages.id, later._id));
    await runDue(s.t.server.services);
    const [failed] = await db().select().from(scheduledMessages).where(eq(scheduledMessages.id, later._id));
    expect(failed).toMatchObject({ status: 'error', failure: texts.flowNotFound });
  });
});
