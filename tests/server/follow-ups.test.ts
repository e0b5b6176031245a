// Automatic follow-ups: the calls (access area, plan gate, bad input), and the engine on the real server with
// a controllable clock: the timing of the three messages, the hours window in the account's time zone, the
// stop at the customer's reply and at 'Desativar follow-up automático', and follow_up_applies.
import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accounts, conversations, followUpRuns, messages, users } from '@/server/db/schema';
import { followUpMessageId, NEVER, runDueFollowUps } from '@/server/jobs/follow-ups';
import { ACCESS_AREAS } from '@/shared/constants';
import { messages as texts } from '@/shared/messages';
import { campaignMessages } from '@/shared/messages-campaigns';
import { followUpMessages } from '@/shared/messages-follow-ups';
import { defaultFollowUpSetting, type FollowUpSettingInput } from '@/shared/rules/follow-up';
import { connectedSimulatorChip } from './channel-helpers';
import { openConversationOf } from './flow-helpers';
import { type TestServer, testServerPerFile } from './helpers';

const ctx = testServerPerFile();

const refusal = async (call: string, body: unknown, token: string) => {
  const r = await ctx.t.post(call, body, token);
  expect(r.status).toBe(200);
  expect(r.body.error, `${call} ${JSON.stringify(body).slice(0, 200)}`).toBe(true);
  return r.body as { error: true; message: string; field?: string };
};

let seq = 0;
const localId = () => `f${Date.now().toString(36)}${(seq++).toString(36)}xxxx`;
const say = (t: TestServer, token: string, phone: string, text: string) =>
  t.call('simulator-send', { token, phone, name: 'Rita', id: localId(), type: 'text', text });

const MIN = 60_000;

/** A setting switched on for human service, all day, with these messages (unset ones disabled). */
function setting(over: Partial<FollowUpSettingInput> = {}): FollowUpSettingInput {
  const d = defaultFollowUpSetting();
  return {
    ...d,
    enabled: true,
    types: ['human'],
    start_time: 0,
    end_time: 0,
    message_1: { enabled: true, text: 'Ainda está aí?', time: 2, unit: 'minutes' },
    message_2: { ...d.message_2, enabled: false },
    message_3: { enabled: true, text: 'Última chamada!', time: 1, unit: 'hours' },
    ...over,
  };
}

/** A connected simulator chip serving by humans, a customer's conversation and the attendant's answer. */
async function answeredConversation(phone: string, follow: FollowUpSettingInput | null = setting()) {
  const { t, seed } = ctx;
  const owner = await t.login('dono@demo.com');
  const { chip, simulatorToken } = await connectedSimulatorChip(t, owner, {
    department: seed.departments.support,
    redirect: 'human',
  });
  if (follow) await t.call('update-follow-up', { chip: chip._id, ...follow }, owner);
  await say(t, simulatorToken, phone, 'Oi, quero um orçamento');
  const conversation = await openConversationOf(t.server.services, phone);
  await t.call(
    'send-conversation-message',
    { conversation_id: conversation.id, message_id: localId(), text: 'Claro! Qual produto?' },
    owner,
  );
  const anchor = (await row(conversation.id)).followUpAnchor;
  if (follow) expect(anchor).toBeInstanceOf(Date);
  return { owner, chip, simulatorToken, conversationId: conversation.id, anchor: anchor as Date };
}

const row = async (id: string) => {
  const [r] = await ctx.t.server.services.db.select().from(conversations).where(eq(conversations.id, id));
  if (!r) throw new Error('no conversation');
  return r;
};

/** The engine's run of the conversation (follow_up_runs): its position, cached due time (wake_at) and claim. */
const runOf = async (id: string) => {
  const [r] = await ctx.t.server.services.db
    .select()
    .from(followUpRuns)
    .where(eq(followUpRuns.conversationId, id));
  return r;
};

/** The follow-ups sent into the conversation (the bot's messages), in order. */
const followUps = (conversationId: string) =>
  ctx.t.server.services.db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), eq(messages.origin, 'chatbot')))
    .orderBy(asc(messages.createdAt), asc(messages.id));

const run = (at: Date) => runDueFollowUps(ctx.t.server.services, at);

describe('follow-up calls', () => {
  it('lists every chip with its setting (defaults until saved) and saves one chip', async () => {
    const { t, seed } = ctx;
    const owner = await t.login('dono@demo.com');
    const { chip } = await connectedSimulatorChip(t, owner, { department: seed.departments.support });
    const before = await t.call('get-follow-ups', {}, owner);
    const mine = before.find((s) => s.chip === chip._id);
    expect(mine).toMatchObject({ saved: false, enabled: false, chip_name: chip.name });
    const saved = await t.call('update-follow-up', { chip: chip._id, ...setting() }, owner);
    expect(saved).toMatchObject({ saved: true, enabled: true, types: ['human'], start_time: 0 });
    // A repeat saves the same: still one setting for the chip.
    await t.call('update-follow-up', { chip: chip._id, ...setting({ start_time: 9, end_time: 17 }) }, owner);
    const after = await t.call('get-follow-ups', {}, owner);
    expect(after.filter((s) => s.chip === chip._id)).toHaveLength(1);
    expect(after.find((s) => s.chip === chip._id)).toMatchObject({
      start_time: 9,
      end_time: 17,
      message_1: { enabled: true, text: 'Ainda está aí?', time: 2, unit: 'minutes' },
      message_3: { enabled: true, text: 'Última chamada!', time: 1, unit: 'hours' },
    });
  });

  it('refuses without the access area, below the plan, and bad input with a pt-BR message', async () => {
    const { t, seed } = ctx;
    const owner = await t.login('dono@demo.com');
    const { chip } = await connectedSimulatorChip(t, owner, { department: seed.departments.support });
    const body = { chip: chip._id, ...setting() };
    // An attendant without the area 'follow-ups'.
    const ana = await t.login('atendente@demo.com');
    expect((await refusal('get-follow-ups', {}, ana)).message).toBe(texts.insufficientPermissions);
    expect((await refusal('update-follow-up', body, ana)).message).toBe(texts.insufficientPermissions);

    // A manager holds it by default; without it, refused too.
    expect(await t.call('get-follow-ups', {}, await t.login('gerente@demo.com'))).not.toHaveLength(0);
    await t.server.services.db
      .update(users)
      .set({ accessAreas: ACCESS_AREAS.filter((a) => a !== 'follow-ups') })
      .where(eq(users.email, 'gerente@demo.com'));
    const manager = await t.login('gerente@demo.com');
    expect((await refusal('get-follow-ups', {}, manager)).message).toBe(texts.insufficientPermissions);
    expect((await refusal('update-follow-up', body, manager)).message).toBe(texts.insufficientPermissions);

    const bad = async (over: Partial<FollowUpSettingInput>, field: string, message: string) => {
      const r = await refusal('update-follow-up', { ...body, ...over }, owner);
      expect(r).toMatchObject({ field, message });
    };
    await bad({ start_time: 24 }, 'start_time', followUpMessages.hourInvalid);
    await bad({ end_time: -1 }, 'end_time', followUpMessages.hourInvalid);
    await bad({ types: [] }, 'types', followUpMessages.typesRequired);
    await bad(
      { message_1: { enabled: true, text: '  ', time: 2, unit: 'minutes' } },
      'message_1.text',
      followUpMessages.textRequired,
    );
    await bad(
      { message_3: { enabled: true, text: 'x', time: 0, unit: 'hours' } },
      'message_3.time',
      followUpMessages.timeInvalid,
    );
    const off = { enabled: false, text: '', time: 1, unit: 'minutes' as const };
    await bad(
      { message_1: off, message_2: off, message_3: off },
      'messages',
      followUpMessages.messageRequired,
    );
    // Wrong shapes: a clear message, never a 500.
    expect((await refusal('update-follow-up', { ...body, start_time: 'oito' }, owner)).message).toMatch(
      /start_time/,
    );
    expect(
      (await refusal('update-follow-up', { ...body, message_1: { ...body.message_1, unit: 'days' } }, owner))
        .message,
    ).toMatch(/message_1/);
    expect((await refusal('update-follow-up', { ...body, chip: 'X'.repeat(28) }, owner)).message).toBe(
      texts.chipNotFound,
    );
    // A setting switched off keeps its draft (an empty text is fine then).
    await t.call('update-follow-up', { ...body, enabled: false, types: [], message_1: off }, owner);
    // Nothing of the refused saves was stored.
    expect((await t.call('get-follow-ups', {}, owner)).find((s) => s.chip === chip._id)?.enabled).toBe(false);

    // The plan gate: one channel only.
    await t.server.services.db
      .update(accounts)
      .set({ maxChannels: 1 })
      .where(eq(accounts.id, seed.accountId));
    const again = await t.login('dono@demo.com');
    expect((await refusal('get-follow-ups', {}, again)).message).toBe(campaignMessages.integrationsNotInPlan);
    expect((await refusal('update-follow-up', body, again)).message).toBe(
      campaignMessages.integrationsNotInPlan,
    );
  });
});

describe('follow-up engine', () => {
  it('sends message 1 its time after the business’s message, skips a disabled one, times the next from the last sent', async () => {
    const { conversationId, anchor } = await answeredConversation('5511955550001');
    const at = (ms: number) => new Date(anchor.getTime() + ms);
    expect(await run(at(2 * MIN - 1000))).toBe(0);
    expect(await followUps(conversationId)).toHaveLength(0);
    expect((await runOf(conversationId))?.wakeAt?.getTime()).toBe(anchor.getTime() + 2 * MIN);

    const firstAt = at(2 * MIN + 5000);
    expect(await run(firstAt)).toBe(1);
    // Run again at the same moment: nothing more.
    expect(await run(firstAt)).toBe(0);
    let sent = await followUps(conversationId);
    expect(sent.map((m) => [m.message, m.messageId, m.userId, m.source])).toEqual([
      ['Ainda está aí?', followUpMessageId(conversationId, anchor, 1), null, 'follow_up'],
    ]);
    // The follow-up does not restart the clock; message 2 is off, so message 3 is 1 h after message 1 was sent.
    expect((await row(conversationId)).followUpAnchor?.getTime()).toBe(anchor.getTime());
    expect(await run(new Date(firstAt.getTime() + 60 * MIN - 1000))).toBe(0);
    expect(await run(new Date(firstAt.getTime() + 60 * MIN))).toBe(1);
    sent = await followUps(conversationId);
    expect(sent.map((m) => m.message)).toEqual(['Ainda está aí?', 'Última chamada!']);
    // None left: nothing more, ever, for this anchor.
    expect(await run(new Date(firstAt.getTime() + 100 * 60 * MIN))).toBe(0);
    expect(await followUps(conversationId)).toHaveLength(2);
    expect((await runOf(conversationId))?.position?.step).toBe(3);
  });

  it('a follow-up answers no one: a customer still waiting stays waiting (spec 2 §4)', async () => {
    const { conversationId, anchor } = await answeredConversation('5511955550007');
    // As when the business's last message was an engine's (a flow's question): the customer still waits.
    await ctx.t.server.services.db
      .update(conversations)
      .set({ waitingResponse: true, isNew: true })
      .where(eq(conversations.id, conversationId));
    expect(await run(new Date(anchor.getTime() + 2 * MIN + 5000))).toBe(1);
    const [sent] = await followUps(conversationId);
    expect(sent?.status).toBeGreaterThanOrEqual(1);
    expect(await row(conversationId)).toMatchObject({ waitingResponse: true, isNew: true });
  });

  it('a setting whose remaining messages are all off has none left: marked, not looked at again', async () => {
    const d = defaultFollowUpSetting();
    const { conversationId, anchor } = await answeredConversation(
      '5511955550007',
      setting({ message_3: { ...d.message_3, enabled: false } }),
    );
    expect(await run(new Date(anchor.getTime() + 2 * MIN))).toBe(1);
    expect(await run(new Date(anchor.getTime() + 100 * 60 * MIN))).toBe(0);
    expect((await runOf(conversationId))?.wakeAt?.getTime()).toBe(NEVER.getTime());
  });

  // The Brazilian zones (none has daylight saving now): the window is the account's, not the server's.
  it.each([
    { zone: 'America/Manaus', offset: 4, phone: '5511955550002' },
    { zone: 'America/Noronha', offset: 2, phone: '5511955550012' },
    { zone: 'America/Sao_Paulo', offset: 3, phone: '5511955550022' },
  ])(
    'waits for the hours window’s next opening in the account’s time zone ($zone)',
    async ({ zone, offset, phone }) => {
      const { seed } = ctx;
      await ctx.t.server.services.db
        .update(accounts)
        .set({ timeZone: zone })
        .where(eq(accounts.id, seed.accountId));
      // A window that the due time (anchor + 2 min) falls outside of: opening 3 hours after that hour.
      const probe = new Date(Date.now() + 2 * MIN + 5000);
      const hourThere = (probe.getUTCHours() + 24 - offset) % 24;
      const start = (hourThere + 3) % 24;
      const end = (hourThere + 5) % 24;
      const { conversationId, anchor } = await answeredConversation(
        phone,
        setting({ start_time: start, end_time: end }),
      );
      const due = new Date(anchor.getTime() + 2 * MIN);
      expect(await run(new Date(due.getTime() + 1000))).toBe(0);
      const cached = (await runOf(conversationId))?.wakeAt;
      // The next opening: start:00 there, 2 to 3 hours after the due time.
      expect(cached).toBeInstanceOf(Date);
      const opening = cached as Date;
      expect((opening.getUTCHours() + 24 - offset) % 24).toBe(start);
      expect(opening.getUTCMinutes()).toBe(0);
      expect(opening.getTime() - due.getTime()).toBeGreaterThan(2 * 60 * MIN);
      expect(opening.getTime() - due.getTime()).toBeLessThanOrEqual(3 * 60 * MIN);
      expect(await run(new Date(opening.getTime() - 1000))).toBe(0);
      expect(await run(opening)).toBe(1);
      expect((await followUps(conversationId)).map((m) => m.message)).toEqual(['Ainda está aí?']);
    },
  );

  it('stops at the customer’s reply, and starts again with the business’s next message', async () => {
    const { owner, simulatorToken, conversationId, anchor } = await answeredConversation('5511955550003');
    await say(ctx.t, simulatorToken, '5511955550003', 'É o modelo X');
    expect((await row(conversationId)).followUpAnchor).toBeNull();
    expect(await run(new Date(anchor.getTime() + 10 * 60 * MIN))).toBe(0);
    expect(await followUps(conversationId)).toHaveLength(0);
    // The attendant answers: a new clock.
    await ctx.t.call(
      'send-conversation-message',
      { conversation_id: conversationId, message_id: localId(), text: 'Temos sim!' },
      owner,
    );
    const next = (await row(conversationId)).followUpAnchor as Date;
    expect(next.getTime()).toBeGreaterThan(anchor.getTime());
    expect(await run(new Date(next.getTime() + 2 * MIN))).toBe(1);
    // A reply after message 1: message 3 never comes.
    await say(ctx.t, simulatorToken, '5511955550003', 'Obrigado');
    expect(await run(new Date(next.getTime() + 10 * 60 * MIN))).toBe(0);
    expect((await followUps(conversationId)).map((m) => m.message)).toEqual(['Ainda está aí?']);
  });

  it('applies only to the types chosen; stops when an attendant disables it in the pane', async () => {
    const { owner, chip, conversationId, anchor } = await answeredConversation('5511955550004');
    // The one conversation, and the same in the list (two queries, one answer).
    const view = async () => {
      const one = (
        await ctx.t.call('get-conversations-with-last-message', { conversation_id: conversationId }, owner)
      ).conversations[0];
      const listed = (await ctx.t.call('get-conversations-with-last-message', {}, owner)).conversations.find(
        (c) => c._id === conversationId,
      );
      expect(listed?.follow_up_applies).toBe(one?.follow_up_applies);
      return one;
    };
    expect((await view())?.follow_up_applies).toBe(true);
    // Only for AI chatbots: this human conversation has none.
    await ctx.t.call('update-follow-up', { chip: chip._id, ...setting({ types: ['ai_chatbot'] }) }, owner);
    expect((await view())?.follow_up_applies).toBe(false);
    expect(await run(new Date(anchor.getTime() + 3 * MIN))).toBe(0);
    // Human again, then 'Desativar follow-up automático'.
    await ctx.t.call('update-follow-up', { chip: chip._id, ...setting() }, owner);
    expect((await view())?.follow_up_applies).toBe(true);
    const changed = await ctx.t.call(
      'change-conversation-data',
      { conversation_id: conversationId, auto_follow_up: false },
      owner,
    );
    expect(changed.auto_follow_up).toBe(false);
    expect(await run(new Date(anchor.getTime() + 10 * 60 * MIN))).toBe(0);
    expect(await followUps(conversationId)).toHaveLength(0);
  });

  it('a chip without a setting, or with it switched off, sends nothing', async () => {
    const { owner, chip, conversationId, anchor } = await answeredConversation('5511955550005', null);
    expect(await run(new Date(anchor.getTime() + 10 * 60 * MIN))).toBe(0);
    await ctx.t.call('update-follow-up', { chip: chip._id, ...setting({ enabled: false }) }, owner);
    expect(await run(new Date(anchor.getTime() + 10 * 60 * MIN))).toBe(0);
    expect(await followUps(conversationId)).toHaveLength(0);
  });

  it('concurrent runs send each follow-up once', async () => {
    const { conversationId, anchor } = await answeredConversation('5511955550006');
    const at = new Date(anchor.getTime() + 2 * MIN + 1000);
    const counts = await Promise.all(Array.from({ length: 6 }, () => run(at)));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await followUps(conversationId)).toHaveLength(1);
  });
});
