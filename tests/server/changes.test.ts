// get-changes-since: the catch-up after a reconnect. The same visibility as the list (account boundary,
// attendants only their departments), a cursor on the server's clock, and bounded pages that go on exactly
// where the last one stopped.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { chips, contacts, conversations, messages, users } from '@/server/db/schema';
import { decodeCursor, encodeCursor } from '@/server/domains/conversations/changes';
import type { Answer } from '@/shared/contract';
import { newId } from '@/shared/ids';
import { testServerPerFile } from './helpers';

const s = testServerPerFile();
type Changes = Answer<'get-changes-since'>;

const db = () => s.t.server.services.db;

async function addChip(accountId: string) {
  const id = newId();
  await db().insert(chips).values({ id, accountId, name: 'Chip', status: 'open' });
  return id;
}

/** Open conversations, one contact each, in one statement (so they share one updated_at). */
async function addConversations(accountId: string, departmentIds: (string | null)[]) {
  const chip = await addChip(accountId);
  const people = departmentIds.map((_, i) => ({
    id: newId(),
    accountId,
    phone: `55119${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}${String(i).padStart(2, '0')}`,
  }));
  await db().insert(contacts).values(people);
  const rows = departmentIds.map((departmentId, i) => ({
    id: newId(),
    accountId,
    chipId: chip,
    contactId: people[i]?.id ?? '',
    departmentId,
    isManual: true,
  }));
  await db().insert(conversations).values(rows);
  return rows.map((r) => r.id);
}

const changes = (token: string, cursor?: string, limit?: number) =>
  s.t.call('get-changes-since', { cursor, limit }, token);

/** Every page from `cursor` on, and the last cursor. */
async function allChanges(token: string, cursor: string, limit?: number) {
  const pages: Changes[] = [];
  for (let next = cursor; ; ) {
    const page = await changes(token, next, limit);
    expect(page.reset).toBe(false);
    pages.push(page);
    next = page.cursor;
    if (!page.more) return { pages, cursor: next };
    expect(pages.length).toBeLessThan(50);
  }
}

const start = async (token: string) => {
  const first = await changes(token);
  expect(first).toMatchObject({ reset: true, conversations: [], removed: [], messages: [], more: false });
  return first.cursor;
};

const ids = (pages: Changes[], key: 'conversations' | 'messages') =>
  pages.flatMap((p) => p[key].map((x) => x._id));

describe('get-changes-since', () => {
  it('answers what changed for the caller: owners the account, attendants their departments', async () => {
    const { accountId, departments } = s.seed;
    const owner = await s.t.login('dono@demo.com');
    const support = await s.t.login('atendente@demo.com');
    const sales = await s.t.login('atendente2@demo.com');
    const cursors = { owner: await start(owner), support: await start(support), sales: await start(sales) };
    const [inSupport = '', inSales = ''] = await addConversations(accountId, [
      departments.support,
      departments.sales,
    ]);
    // Another account: its ids never reach this account's users, in any list.
    const [admin] = await db().select().from(users).where(eq(users.email, 'admin@demo.com'));
    const [foreign = ''] = await addConversations(admin?.accountId ?? '', [null]);
    const note = await s.t.call(
      'create-system-message',
      { conversation_id: inSupport, message: 'Nota' },
      owner,
    );

    const o = await allChanges(owner, cursors.owner);
    expect(ids(o.pages, 'conversations')).toEqual(expect.arrayContaining([inSupport, inSales]));
    expect(ids(o.pages, 'messages')).toContain(note._id);

    const a = await allChanges(support, cursors.support);
    expect(ids(a.pages, 'conversations')).toContain(inSupport);
    expect(ids(a.pages, 'conversations')).not.toContain(inSales);
    expect(ids(a.pages, 'messages')).toContain(note._id);

    const b = await allChanges(sales, cursors.sales);
    expect(ids(b.pages, 'conversations')).toEqual([inSales]);
    expect(ids(b.pages, 'messages')).not.toContain(note._id);

    for (const r of [o, a, b]) {
      const seen = JSON.stringify(r.pages);
      expect(seen).not.toContain(foreign);
    }

    // Transferred to sales: it leaves the support attendant's view (removed) and joins the sales one's.
    await s.t.call(
      'transfer-conversation',
      { conversation_id: inSupport, type: 'department', department: departments.sales },
      owner,
    );
    const a2 = await allChanges(support, a.cursor);
    expect(a2.pages.flatMap((p) => p.removed)).toContain(inSupport);
    expect(ids(a2.pages, 'conversations')).not.toContain(inSupport);
    const b2 = await allChanges(sales, b.cursor);
    expect(ids(b2.pages, 'conversations')).toContain(inSupport);

    // Finished: it comes with its end time, so the app takes it out of the lists.
    await s.t.call('finish-conversation', { conversation_id: inSales }, owner);
    const b3 = await allChanges(sales, b2.cursor);
    const finished = b3.pages.flatMap((p) => p.conversations).find((c) => c._id === inSales);
    expect(finished?.finished).toBeTruthy();
  });

  it('answers a changed message again (a status, a delete), by its updated time', async () => {
    const owner = await s.t.login('dono@demo.com');
    const [conversation = ''] = await addConversations(s.seed.accountId, [s.seed.departments.support]);
    const note = await s.t.call(
      'create-system-message',
      { conversation_id: conversation, message: 'Nota' },
      owner,
    );
    const cursor = (await allChanges(owner, await start(owner))).cursor;
    // The status moves (a provider's receipt): the message is news again, with its new status.
    await db().update(messages).set({ status: 3 }).where(eq(messages.id, note._id));
    const after = await allChanges(owner, cursor);
    const again = after.pages.flatMap((p) => p.messages).find((m) => m._id === note._id);
    expect(again?.status).toBe(3);
  });

  it("a contact's new name is a change of its open conversations", async () => {
    const owner = await s.t.login('dono@demo.com');
    const [conversation = ''] = await addConversations(s.seed.accountId, [s.seed.departments.support]);
    // Older than the cursor's overlap: only the rename can bring it back.
    await db()
      .update(conversations)
      .set({ updatedAt: sql`now() - interval '1 minute'` })
      .where(eq(conversations.id, conversation));
    const cursor = await start(owner);
    expect(ids((await allChanges(owner, cursor)).pages, 'conversations')).not.toContain(conversation);
    const [row] = await db().select().from(conversations).where(eq(conversations.id, conversation));
    await s.t.call('change-contact-name', { contact_id: row?.contactId, override_name: 'Dona Rosa' }, owner);
    const renamed = (await allChanges(owner, cursor)).pages
      .flatMap((p) => p.conversations)
      .find((c) => c._id === conversation);
    expect(renamed?.contact.override_name).toBe('Dona Rosa');
  });

  it('pages a bulk change (one updated time for all) exactly once each, in bounded pages', async () => {
    const owner = await s.t.login('dono@demo.com');
    const cursor = await start(owner);
    const made = await addConversations(s.seed.accountId, Array(23).fill(s.seed.departments.support));
    // One statement: every row gets the same updated_at, the hard case for a time cursor.
    await db()
      .update(conversations)
      .set({ waitingResponse: true })
      .where(eq(conversations.accountId, s.seed.accountId));
    const { pages } = await allChanges(owner, cursor, 10);
    expect(pages.map((p) => p.conversations.length)).toEqual([10, 10, 3]);
    expect(pages.map((p) => p.more)).toEqual([true, true, false]);
    const seen = ids(pages, 'conversations');
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual([...made].sort());
  });

  it('answers reset with a fresh cursor when the cursor is missing, too old or not its own', async () => {
    const owner = await s.t.login('dono@demo.com');
    const cursor = await start(owner);
    const parsed = decodeCursor(cursor);
    expect(parsed).not.toBeNull();
    // The server's clock, not the device's: a minute either way of now.
    expect(Math.abs(Date.parse(parsed?.conversations.at ?? '') - Date.now())).toBeLessThan(60_000);
    const old = encodeCursor({
      conversations: { at: '2020-01-01T00:00:00.000000Z', id: '' },
      messages: { at: '2020-01-01T00:00:00.000000Z', id: '' },
    });
    for (const bad of [
      old,
      'x',
      '1|a|b|c|d',
      '1|2026-13-45T00:00:00.000000Z||2026-01-01T00:00:00.000000Z|',
    ]) {
      const answer = await changes(owner, bad);
      expect(answer).toMatchObject({ reset: true, conversations: [], messages: [], more: false });
      expect(decodeCursor(answer.cursor)).not.toBeNull();
    }
  });

  it("a cursor naming another account's row shows nothing of that account", async () => {
    const owner = await s.t.login('dono@demo.com');
    const [admin] = await db().select().from(users).where(eq(users.email, 'admin@demo.com'));
    const [foreign = ''] = await addConversations(admin?.accountId ?? '', [null]);
    const [row] = await db()
      .select({ at: sql<string>`to_char(updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')` })
      .from(conversations)
      .where(eq(conversations.id, foreign));
    const before = new Date(Date.parse(row?.at ?? '') - 60_000).toISOString().replace('Z', '000Z');
    const crafted = encodeCursor({
      conversations: { at: before, id: foreign },
      messages: { at: before, id: foreign },
    });
    const { pages } = await allChanges(owner, crafted);
    expect(JSON.stringify(pages)).not.toContain(foreign);
  });

  it('refuses a bad limit and a missing token with the envelope', async () => {
    const owner = await s.t.login('dono@demo.com');
    const bad = await s.t.post('get-changes-since', { limit: 100000 }, owner);
    expect(bad.body.error).toBe(true);
    const anonymous = await s.t.post('get-changes-since', {});
    expect(anonymous.status).toBe(401);
  });
});
