// Issue 35 item 2: the WhatsApp Cloud API down for a while. Graph answering 503 with Meta's transient code 2
// (`is_transient`) while an attendant sends: each send stays 'enviando' (pending), none fails, the tries back
// off rather than hammer Graph, and when Graph is back every send reaches the customer once and in the order
// typed. A permanent error met on a retry (the 24 h window closed) fails that send with its reason; the ones
// queued behind it go on. A rate limit waits the same way.
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeEach, expect, it } from 'vitest';
import { conversations, messages } from '@/server/db/schema';
import { MESSAGE_STATUS } from '@/shared/constants';
import { messages as texts } from '@/shared/messages';
import {
  type FakeGraph,
  graphEnv,
  messagesNotification,
  postWebhook,
  startFakeGraph,
} from '../fakes/graph-api';
import { listen, until } from './channel-helpers';
import { testServerPerFile } from './helpers';
import { officialChip, PHONE_NUMBER_ID, WABA } from './official-helpers';

const CUSTOMER = '5511987654321';
const graph: FakeGraph = await startFakeGraph();
const s = testServerPerFile(graphEnv(graph));
afterAll(() => graph.close());
beforeEach(() => graph.clear());

/** An official number whose customer wrote first (the 24 h window open): the conversation to answer in. */
async function customerWrote() {
  const { owner, chipId } = await officialChip(s.t, s.seed.departments.support);
  const body = messagesNotification(
    { waba: WABA, phoneNumberId: PHONE_NUMBER_ID },
    {
      contacts: [{ profile: { name: 'Maria' }, wa_id: CUSTOMER }],
      messages: [
        {
          from: CUSTOMER,
          id: `wamid.IN${Date.now()}`,
          timestamp: String(Math.floor(Date.now() / 1000)),
          type: 'text',
          text: { body: 'Oi' },
        },
      ],
    },
  );
  expect((await postWebhook(s.t.url, body, { secret: 'secret' })).status).toBe(200);
  await s.t.server.services.channels.cloudApi.idle();
  const [conversation] = await s.t.server.services.db
    .select()
    .from(conversations)
    .where(eq(conversations.chipId, chipId));
  if (!conversation) throw new Error('no conversation');
  return { owner, conversation };
}

const stored = (conversationId: string) =>
  s.t.server.services.db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), eq(messages.origin, 'user')))
    .orderBy(asc(messages.createdAt), asc(messages.id));

/**
 * The outage's length: 20 s in the suite; `OUTAGE_SECONDS=300 npx vitest run tests/server/provider-outage.test.ts`
 * runs the 5 minutes.
 */
const OUTAGE_MS = Number(process.env.OUTAGE_SECONDS ?? 20) * 1000;
/** The tries of the first send that the backoff allows in `ms` (delivery.ts retryAt: 5 s, then half its age, ≤ 60 s). */
function triesWithin(ms: number) {
  let at = 0;
  let tries = 0;
  while (at < ms) {
    at += Math.max(5_000, Math.min(60_000, at / 2));
    tries++;
  }
  return tries;
}

it(
  `Graph down (503, code 2, is_transient) for ${OUTAGE_MS / 1000} s while an attendant sends 12 messages: they wait as enviando, the tries back off, and once it is back each reaches the customer once, in order`,
  async () => {
    const { owner, conversation } = await customerWrote();
    const screen = await listen(s.t, 'dono@demo.com');
    const outageMs = OUTAGE_MS;
    const began = Date.now();
    graph.outage = {
      until: began + outageMs,
      failure: { code: 2, status: 503, message: 'Service temporarily unavailable', transient: true },
    };
    const typed = Array.from({ length: 12 }, (_, i) => `Mensagem ${i + 1}`);
    for (const [i, text] of typed.entries()) {
      const answer = await s.t.call(
        'send-conversation-message',
        { conversation_id: conversation.id, message_id: `outage-${i}`, text },
        owner,
      );
      // Not failed: 'enviando' on the attendant's screen.
      expect(answer, text).toMatchObject({ status: MESSAGE_STATUS.pending, failure: null });
    }
    await until(
      async () => (await stored(conversation.id)).every((m) => m.status >= MESSAGE_STATUS.sent),
      OUTAGE_MS + 60_000,
    );
    const recoveredMs = Date.now() - (began + outageMs);
    const rows = await stored(conversation.id);
    expect(rows.map((m) => [m.message, m.status >= MESSAGE_STATUS.sent, m.failure])).toEqual(
      typed.map((t) => [t, true, null]),
    );
    // Once each, in the order typed: what Graph took.
    const taken = graph.sent.filter((x) => x.to === CUSTOMER).map((x) => x.wamid);
    expect(taken).toHaveLength(12);
    expect(rows.map((m) => m.platformMessageId)).toEqual(taken);
    // Backed off: the first send tried every 5 s or so, the others waited behind it (not one try each a second).
    // Every try Graph refused (the outage's): the requests beyond the 12 it took.
    const tries = graph.to('/messages').length - taken.length;
    expect(tries).toBeGreaterThanOrEqual(2);
    expect(tries).toBeLessThanOrEqual(triesWithin(outageMs) + 4);
    // The attendant's screen saw each one become 'enviada'.
    await until(
      () =>
        typed.every((text) =>
          screen.events.some(
            (e) =>
              e.type === 'message_updated' &&
              e.message.message.message === text &&
              e.message.message.status === MESSAGE_STATUS.sent,
          ),
        ),
      10_000,
    );
    screen.sock.close();
    console.log(
      `provider-outage: Graph down ${outageMs / 1000} s; sends accepted 12, tries refused during it ${tries}, ` +
        `lost 0, doubled 0, out of order 0; all sent ${recoveredMs} ms after it came back`,
    );
  },
  OUTAGE_MS + 90_000,
);

it('a send waiting for Graph that meets a permanent error (131047, window closed) fails with its reason; a rate limit (130429) waits; those queued behind go on, in order', async () => {
  const { owner, conversation } = await customerWrote();
  graph.failNext({ code: 2, status: 503, transient: true });
  graph.failNext({ code: 131047, status: 400 });
  const first = await s.t.call(
    'send-conversation-message',
    { conversation_id: conversation.id, message_id: 'permanent-1', text: 'Primeira' },
    owner,
  );
  expect(first.status).toBe(MESSAGE_STATUS.pending);
  const second = await s.t.call(
    'send-conversation-message',
    { conversation_id: conversation.id, message_id: 'permanent-2', text: 'Segunda' },
    owner,
  );
  // Queued behind the first: Graph not asked yet.
  expect(second.status).toBe(MESSAGE_STATUS.pending);
  expect(graph.to('/messages')).toHaveLength(1);
  await until(
    async () => (await stored(conversation.id)).every((m) => m.status !== MESSAGE_STATUS.pending),
    30_000,
  );
  const rows = await stored(conversation.id);
  expect(rows.map((m) => [m.message, m.status, m.failure])).toEqual([
    ['Primeira', MESSAGE_STATUS.failed, texts.cloudApiReengagement],
    ['Segunda', MESSAGE_STATUS.sent, null],
  ]);

  // Meta's throughput limit: the send waits and goes once.
  graph.failNext({ code: 130429, status: 400 });
  const third = await s.t.call(
    'send-conversation-message',
    { conversation_id: conversation.id, message_id: 'permanent-3', text: 'Terceira' },
    owner,
  );
  expect(third.status).toBe(MESSAGE_STATUS.pending);
  await until(async () => (await stored(conversation.id)).at(-1)?.status === MESSAGE_STATUS.sent, 30_000);
  expect(graph.sent.filter((x) => x.to === CUSTOMER)).toHaveLength(2);
}, 90_000);
