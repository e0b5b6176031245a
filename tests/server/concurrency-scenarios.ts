// Concurrent calls on the same rows, for every write call of the contract that changes existing rows: each
// scenario fires its calls at once against the real server and counts how many updates did not survive
// (an annotation gone, a message the conversation does not point at, a transfer half applied…). On
// PostgreSQL the calls really run in parallel; PGlite runs one query at a time, but a read-modify-write
// spread over several queries still interleaves there. Shared by tests/server/concurrency.test.ts and
// tests/bench/concurrency-figures.ts.
import { and, desc, eq, isNull, ne } from 'drizzle-orm';
import { accounts, contacts, conversations, messages } from '@/server/db/schema';
import { newId } from '@/shared/ids';
import { messages as texts } from '@/shared/messages';
import { connectedSimulatorChip } from './channel-helpers';
import type { TestServer } from './helpers';

export interface Outcome {
  /** Calls fired. */
  tried: number;
  /** Updates that answered success and did not survive, or left the rows inconsistent. */
  lost: number;
  /** What went wrong, for the test's message. */
  detail: string[];
}

type Seed = Awaited<ReturnType<TestServer['reset']>>;
interface World {
  t: TestServer;
  seed: Seed;
  owner: string;
}

/** How many calls each scenario fires at once. */
export const WIDTH = 8;

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
let seq = 0;
const uid = (p: string) => `${p}${Date.now().toString(36)}${(seq++).toString(36)}xxxxxx`.slice(0, 40);

/** Calls in parallel; answers each call's outcome (ok or the error envelope's message). */
async function fire(t: TestServer, calls: { call: string; body: unknown; token?: string }[]) {
  return Promise.all(
    calls.map(async (c) => {
      const { status, body } = await t.post(c.call, c.body, c.token);
      return { ok: status === 200 && !body.error, status, message: body.message };
    }),
  );
}

/** A customer who wrote once on a connected simulator chip: the chip, the contact and its open conversation. */
async function customerConversation(
  w: World,
  phone = `5511${String(900000000 + Math.floor(Math.random() * 99999999))}`,
) {
  const { chip, simulatorToken } = await connectedSimulatorChip(w.t, w.owner, {
    department: w.seed.departments.support,
  });
  await w.t.call('simulator-send', {
    token: simulatorToken,
    phone,
    name: 'Cliente',
    id: uid('first'),
    type: 'text',
    text: 'Olá',
  });
  const { db } = w.t.server.services;
  const [contact] = await db.select().from(contacts).where(eq(contacts.phone, phone));
  if (!contact) throw new Error('no contact');
  const [conversation] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.contactId, contact.id), isNull(conversations.finishedAt)));
  if (!conversation) throw new Error('no conversation');
  return { chip, simulatorToken, contact, conversation, phone };
}

/**
 * The conversation's last message must be its newest message, in the database's order (created_at to the
 * microsecond, then id): a JS Date keeps milliseconds only, so two messages of the same millisecond would
 * be ordered by id here and by time on the server.
 */
async function pointsAtNewest(w: World, conversationId: string) {
  const { db } = w.t.server.services;
  const rows = await db.select().from(messages).where(eq(messages.conversationId, conversationId));
  const [newest] = await db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), ne(messages.type, 'system')))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(1);
  const [conversation] = await db.select().from(conversations).where(eq(conversations.id, conversationId));
  return { ok: conversation?.lastMessageId === newest?.id, conversation, rows };
}

const outcome = (): Outcome => ({ tried: 0, lost: 0, detail: [] });

export const scenarios: Record<string, (w: World) => Promise<Outcome>> = {
  async 'add annotations to one contact'(w) {
    const o = outcome();
    const { contact } = await customerConversation(w);
    const answers = await fire(
      w.t,
      range(WIDTH).map((i) => ({
        call: 'change-contact-annotations-and-data',
        body: { contact_id: contact.id, data: {}, new_annotation: `nota ${i}` },
        token: w.owner,
      })),
    );
    o.tried = answers.length;
    const ok = answers.filter((a) => a.ok).length;
    const after = await w.t.call('get-contact-by-id', { contact_id: contact.id }, w.owner);
    const kept = after.annotations.length;
    if (kept < ok) {
      o.lost += ok - kept;
      o.detail.push(`${ok} annotations answered success, ${kept} remain`);
    }
    return o;
  },

  async 'change variables, name and annotations of one contact'(w) {
    const o = outcome();
    const { contact } = await customerConversation(w);
    const calls = range(WIDTH).map((i) =>
      i % 2
        ? { call: 'change-contact-name', body: { contact_id: contact.id, override_name: `Nome ${i}` } }
        : {
            call: 'change-contact-annotations-and-data',
            body: { contact_id: contact.id, data: { cpf: `${i}`, cidade: `c${i}` }, new_annotation: `a${i}` },
          },
    );
    const answers = await fire(
      w.t,
      calls.map((c) => ({ ...c, token: w.owner })),
    );
    o.tried = answers.length;
    const after = await w.t.call('get-contact-by-id', { contact_id: contact.id }, w.owner);
    const annotationsOk = answers.filter((a, i) => a.ok && i % 2 === 0).length;
    if (after.annotations.length < annotationsOk) {
      o.lost += annotationsOk - after.annotations.length;
      o.detail.push(`annotations: ${annotationsOk} ok, ${after.annotations.length} kept`);
    }
    // The variables are the drawer's whole map: one call's map, never a mix of two.
    const data = after.data as Record<string, string>;
    if (!data.cpf || data.cidade !== `c${data.cpf}`) {
      o.lost++;
      o.detail.push(`variables mixed: ${JSON.stringify(data)}`);
    }
    if (!after.override_name?.startsWith('Nome ')) {
      o.lost++;
      o.detail.push(`name lost: ${after.override_name}`);
    }
    return o;
  },

  async 'auto-tags from inbound messages of one contact'(w) {
    const o = outcome();
    const tagIds: string[] = [];
    for (const i of range(WIDTH)) {
      const tag = await w.t.call(
        'create-or-update-tag',
        { name: `Auto ${i}`, color: '#FF0000', auto_tag: true, keywords: [`palavra${i}`] },
        w.owner,
      );
      tagIds.push(tag._id);
    }
    const { simulatorToken, contact, phone } = await customerConversation(w);
    const answers = await fire(
      w.t,
      range(WIDTH).map((i) => ({
        call: 'simulator-send',
        body: { token: simulatorToken, phone, id: uid(`tag${i}`), type: 'text', text: `sobre palavra${i}` },
      })),
    );
    o.tried = answers.length;
    const after = await w.t.call('get-contact-by-id', { contact_id: contact.id }, w.owner);
    const missing = tagIds.filter((id, i) => answers[i]?.ok && !after.tags.includes(id));
    if (missing.length) {
      o.lost += missing.length;
      o.detail.push(`${missing.length} auto-tags lost`);
    }
    return o;
  },

  async 'change the tags of one contact'(w) {
    const o = outcome();
    const { contact } = await customerConversation(w);
    const sets: string[][] = [];
    for (const i of range(WIDTH)) {
      const a = await w.t.call('create-or-update-tag', { name: `T${i}a`, color: '#00FF00' }, w.owner);
      const b = await w.t.call('create-or-update-tag', { name: `T${i}b`, color: '#00FF00' }, w.owner);
      sets.push([a._id, b._id]);
    }
    const answers = await fire(
      w.t,
      sets.map((tags) => ({
        call: 'change-contact-tags',
        body: { contact_id: contact.id, tags },
        token: w.owner,
      })),
    );
    o.tried = answers.length;
    const after = await w.t.call('get-contact-by-id', { contact_id: contact.id }, w.owner);
    if (!sets.some((s) => JSON.stringify(s) === JSON.stringify(after.tags))) {
      o.lost++;
      o.detail.push(`tags are no call's list: ${after.tags.join(',')}`);
    }
    return o;
  },

  async 'inbound messages on one conversation'(w) {
    const o = outcome();
    const { simulatorToken, conversation, phone } = await customerConversation(w);
    await w.t.call(
      'change-conversation-data',
      { conversation_id: conversation.id, waiting_response: false },
      w.owner,
    );
    const answers = await fire(
      w.t,
      range(WIDTH * 2).map((i) => ({
        call: 'simulator-send',
        body: { token: simulatorToken, phone, id: uid(`in${i}`), type: 'text', text: `mensagem ${i}` },
      })),
    );
    o.tried = answers.length;
    const { ok, conversation: after, rows } = await pointsAtNewest(w, conversation.id);
    const stored = rows.filter((m) => m.message.startsWith('mensagem ')).length;
    const okCount = answers.filter((a) => a.ok).length;
    if (stored < okCount) {
      o.lost += okCount - stored;
      o.detail.push(`${okCount} inbound answered, ${stored} stored`);
    }
    if (!ok || !after?.waitingResponse) {
      o.lost++;
      o.detail.push(`conversation not at its newest message (waiting ${after?.waitingResponse})`);
    }
    return o;
  },

  async 'team sends and system notes on one conversation'(w) {
    const o = outcome();
    const { conversation } = await customerConversation(w);
    const answers = await fire(
      w.t,
      range(WIDTH * 2).map((i) =>
        i % 4 === 3
          ? {
              call: 'create-system-message',
              body: { conversation_id: conversation.id, message: `nota ${i}` },
              token: w.owner,
            }
          : {
              call: 'send-conversation-message',
              body: { conversation_id: conversation.id, message_id: uid(`out${i}`), text: `resposta ${i}` },
              token: w.owner,
            },
      ),
    );
    o.tried = answers.length;
    const { ok, conversation: after, rows } = await pointsAtNewest(w, conversation.id);
    const okCount = answers.filter((a) => a.ok).length;
    const stored = rows.filter((m) => /^(\*.*\*:\n)?(resposta|nota) /.test(m.message)).length;
    if (stored < okCount) {
      o.lost += okCount - stored;
      o.detail.push(`${okCount} sends answered, ${stored} stored`);
    }
    if (!ok || after?.waitingResponse || after?.isNew) {
      o.lost++;
      o.detail.push(
        `conversation not at its newest answer (newest ${ok}, waiting ${after?.waitingResponse}, new ${after?.isNew})`,
      );
    }
    return o;
  },

  async 'the same send retried at once'(w) {
    const o = outcome();
    const { conversation } = await customerConversation(w);
    const body = { conversation_id: conversation.id, message_id: uid('same'), text: 'uma vez só' };
    const answers = await fire(
      w.t,
      range(WIDTH).map(() => ({ call: 'send-conversation-message', body, token: w.owner })),
    );
    o.tried = answers.length;
    const { db } = w.t.server.services;
    const rows = await db.select().from(messages).where(eq(messages.messageId, body.message_id));
    const ids = new Set(answers.filter((a) => a.ok).map((a) => (a.message as { _id: string })._id));
    if (rows.length !== 1 || ids.size !== 1) {
      o.lost++;
      o.detail.push(`${rows.length} rows, ${ids.size} different answers`);
    }
    return o;
  },

  async 'conversation data, manual and transfers on one conversation'(w) {
    const o = outcome();
    const { conversation, contact } = await customerConversation(w);
    const tagA = await w.t.call('create-or-update-tag', { name: 'Transf A', color: '#0000FF' }, w.owner);
    const tagB = await w.t.call('create-or-update-tag', { name: 'Transf B', color: '#0000FF' }, w.owner);
    const target = { [w.seed.departments.support]: [tagA._id], [w.seed.departments.sales]: [tagB._id] };
    const answers = await fire(w.t, [
      ...range(WIDTH).map((i) => {
        const department = i % 2 ? w.seed.departments.sales : w.seed.departments.support;
        return {
          call: 'transfer-conversation',
          body: {
            conversation_id: conversation.id,
            type: 'department',
            department,
            tags: target[department],
          },
          token: w.owner,
        };
      }),
      {
        call: 'change-conversation-data',
        body: { conversation_id: conversation.id, waiting_response: false },
        token: w.owner,
      },
      {
        call: 'change-conversation-data',
        body: { conversation_id: conversation.id, auto_follow_up: false },
        token: w.owner,
      },
      { call: 'set-conversation-manual', body: { conversation_id: conversation.id }, token: w.owner },
    ]);
    o.tried = answers.length;
    const { db } = w.t.server.services;
    const [after] = await db.select().from(conversations).where(eq(conversations.id, conversation.id));
    const [who] = await db.select().from(contacts).where(eq(contacts.id, contact.id));
    // One transfer wins whole: its department together with its tags.
    if (JSON.stringify(who?.tags) !== JSON.stringify(target[after?.departmentId ?? ''])) {
      o.lost++;
      o.detail.push(`transfer half applied: department ${after?.departmentId}, tags ${who?.tags}`);
    }
    if (after?.waitingResponse !== false || after.autoFollowUp !== false || after.isManual !== true) {
      o.lost++;
      o.detail.push('a conversation flag was lost');
    }
    return o;
  },

  async 'finish and resume one conversation'(w) {
    const o = outcome();
    const { conversation, contact, chip } = await customerConversation(w);
    const finishes = await fire(
      w.t,
      range(WIDTH).map(() => ({
        call: 'finish-conversation',
        body: { conversation_id: conversation.id },
        token: w.owner,
      })),
    );
    const resumes = await fire(
      w.t,
      range(WIDTH).map(() => ({
        call: 'resume-conversation',
        body: { conversation_id: conversation.id },
        token: w.owner,
      })),
    );
    o.tried = finishes.length + resumes.length;
    const { db } = w.t.server.services;
    const open = await db
      .select()
      .from(conversations)
      .where(
        and(
          eq(conversations.contactId, contact.id),
          eq(conversations.chipId, chip._id),
          isNull(conversations.finishedAt),
        ),
      );
    const finishedOk = finishes.filter((a) => a.ok).length;
    const resumedOk = resumes.filter((a) => a.ok).length;
    if (finishedOk !== 1 || resumedOk !== 1 || open.length !== 1) {
      o.lost++;
      o.detail.push(`finish ok ${finishedOk}, resume ok ${resumedOk}, open ${open.length}`);
    }
    if (resumes.some((a) => a.status >= 500) || finishes.some((a) => a.status >= 500)) {
      o.lost++;
      o.detail.push('a 500 under concurrency');
    }
    return o;
  },

  async 'team user edits'(w) {
    const o = outcome();
    const created = await w.t.call(
      'create-team-user',
      {
        name: 'Carla',
        email: `carla${seq++}@demo.com`,
        password: 'segredo123',
        user_role: 'user',
        departments: [w.seed.departments.support],
        access_areas: [],
      },
      w.owner,
    );
    const variants = range(WIDTH).map((i) => ({
      _id: created._id,
      name: `Carla ${i}`,
      email: created.email,
      user_role: 'user',
      departments:
        i % 2 ? [w.seed.departments.sales] : [w.seed.departments.support, w.seed.departments.sales],
      access_areas: i % 2 ? ['contacts'] : [],
    }));
    const answers = await fire(
      w.t,
      variants.map((body) => ({ call: 'update-team-user', body, token: w.owner })),
    );
    o.tried = answers.length;
    const team = await w.t.call('get-team-users', {}, w.owner);
    const after = team.find((u) => u._id === created._id);
    const match = variants.find((v) => v.name === after?.name);
    if (
      !match ||
      JSON.stringify(match.departments) !== JSON.stringify(after?.departments) ||
      JSON.stringify(match.access_areas) !== JSON.stringify(after?.access_areas)
    ) {
      o.lost++;
      o.detail.push(`team user is no call's edit: ${JSON.stringify(after)}`);
    }
    return o;
  },

  async 'department, tag and quick message creates and edits'(w) {
    const o = outcome();
    const cases = [
      {
        call: 'create-or-update-department',
        body: (i: number) => ({ name: `Dep ${i}`, description: `d${i}` }),
        list: 'get-departments-by-user',
      },
      {
        call: 'create-or-update-tag',
        body: (i: number) => ({ name: `Tag ${i}`, color: `#00000${i}` }),
        list: 'get-tags-by-user',
      },
      {
        call: 'create-or-update-quick-message',
        body: (i: number) => ({ shortcut: `q${i}`, message: `m${i}` }),
        list: 'get-quick-messages-by-user',
      },
    ] as const;
    for (const c of cases) {
      const id = newId();
      const answers = await fire(
        w.t,
        range(WIDTH).map((i) => ({ call: c.call, body: { _id: id, ...c.body(i) }, token: w.owner })),
      );
      o.tried += answers.length;
      const failed = answers.filter((a) => !a.ok).length;
      const list = (await w.t.call(c.list, {}, w.owner)) as { _id: string }[];
      const rows = list.filter((r) => r._id === id);
      if (failed || rows.length !== 1) {
        o.lost += failed || 1;
        o.detail.push(`${c.call}: ${failed} failed, ${rows.length} rows`);
      }
    }
    return o;
  },

  async 'chip creates and edits'(w) {
    const o = outcome();
    const id = newId();
    const answers = await fire(
      w.t,
      range(WIDTH).map((i) => ({
        call: 'create-or-update-chip',
        body: {
          _id: id,
          name: `Canal ${i}`,
          redirect: 'human',
          department: i % 2 ? w.seed.departments.sales : w.seed.departments.support,
        },
        token: w.owner,
      })),
    );
    o.tried = answers.length;
    const chips = await w.t.call('get-chip-numbers-by-user', {}, w.owner);
    const mine = chips.filter((c) => c._id === id);
    const failed = answers.filter((a) => !a.ok).length;
    const consistent =
      mine[0] &&
      (Number(mine[0].name.slice(6)) % 2 ? w.seed.departments.sales : w.seed.departments.support) ===
        mine[0].department;
    if (failed || mine.length !== 1 || !consistent) {
      o.lost += failed || 1;
      o.detail.push(`chip: ${failed} failed, ${mine.length} rows, consistent ${consistent}`);
    }
    return o;
  },

  async 'scheduled message creates and edits'(w) {
    const o = outcome();
    const { chip } = await connectedSimulatorChip(w.t, w.owner, { department: w.seed.departments.support });
    const id = newId();
    const when = (i: number) => new Date(Date.now() + (10 + i) * 60 * 60 * 1000).toISOString();
    const body = (i: number) => ({
      _id: id,
      country_code: '55',
      to: '11987654321',
      chip: chip._id,
      type: 'text',
      message: `agendada ${i}`,
      scheduledTo: when(i),
    });
    const creates = await fire(
      w.t,
      range(WIDTH).map((i) => ({ call: 'create-scheduled-message', body: body(i), token: w.owner })),
    );
    const updates = await fire(
      w.t,
      range(WIDTH).map((i) => ({ call: 'update-scheduled-message', body: body(i + 100), token: w.owner })),
    );
    o.tried = creates.length + updates.length;
    const list = await w.t.call('get-scheduled-messages-by-user', {}, w.owner);
    const mine = list.filter((m) => m._id === id);
    const failed = [...creates, ...updates].filter((a) => !a.ok).length;
    const item = mine[0];
    // One edit whole: its text with its time (the dialog's time is kept to the minute).
    const at = item ? Date.parse(when(Number(item.message.split(' ')[1]))) : 0;
    const consistent = item && Math.abs(Date.parse(item.scheduledTo) - at) < 60_000;
    if (failed || mine.length !== 1 || !consistent) {
      o.lost += failed || 1;
      o.detail.push(`scheduled: ${failed} failed, ${mine.length} rows, ${JSON.stringify(item)}`);
    }
    return o;
  },

  async 'flow creations against the plan’s max_flows'(w) {
    const o = outcome();
    const max = 4;
    await w.t.server.services.db
      .update(accounts)
      .set({ maxFlows: max })
      .where(eq(accounts.id, w.seed.accountId));
    const [demo] = await w.t.call('get-flows-by-user', {}, w.owner);
    if (!demo) throw new Error('no demo flow');
    const file = await w.t.call('get-flow', { _id: demo._id }, w.owner);
    const kinds = [
      (i: number) => ({ call: 'create-or-update-flow', body: { name: `Fluxo ${i}` } }),
      (i: number) => ({ call: 'duplicate-flow', body: { _id: demo._id, name: `Cópia ${i}` } }),
      () => ({ call: 'import-flow', body: { file } }),
    ];
    const answers = await fire(
      w.t,
      range(WIDTH * 2).map((i) => ({
        ...(kinds[i % 3] as (i: number) => { call: string; body: unknown })(i),
        token: w.owner,
      })),
    );
    o.tried = answers.length;
    const live = (await w.t.call('get-flows-by-user', {}, w.owner)).length;
    const created = answers.filter((a) => a.ok).length;
    // Every creation past the limit is one too many; every refusal must be the limit's message.
    const wrong = answers.filter((a) => !a.ok && a.message !== texts.flowLimitReached(max)).length;
    if (live !== max || created !== max - 1 || wrong) {
      o.lost += Math.max(0, live - max) + wrong || 1;
      o.detail.push(`flows: ${live} live of ${max}, ${created} created, ${wrong} other refusals`);
    }
    return o;
  },
};

/** Runs every scenario on a freshly seeded server; answers the totals and each scenario's outcome. */
export async function runScenarios(t: TestServer, only?: string[]) {
  const results: Record<string, Outcome> = {};
  for (const [name, run] of Object.entries(scenarios)) {
    if (only && !only.includes(name)) continue;
    const seed = await t.reset();
    const owner = await t.login('dono@demo.com');
    results[name] = await run({ t, seed, owner });
  }
  const values = Object.values(results);
  return {
    results,
    tried: values.reduce((n, r) => n + r.tried, 0),
    lost: values.reduce((n, r) => n + r.lost, 0),
  };
}
