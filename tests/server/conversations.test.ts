import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { chips, contacts, conversations, users } from '@/server/db/schema';
import { newId } from '@/shared/ids';
import { testServerPerFile } from './helpers';

const s = testServerPerFile();

type NewConversation = Partial<typeof conversations.$inferInsert>;

async function addConversations(accountId: string, chipId: string, rows: NewConversation[]) {
  const db = s.t.server.services.db;
  const people = rows.map((_, i) => ({
    id: newId(),
    accountId,
    phone: `55119${String(i).padStart(8, '0')}`,
  }));
  await db.insert(contacts).values(people);
  await db
    .insert(conversations)
    .values(rows.map((r, i) => ({ id: newId(), accountId, chipId, contactId: people[i]?.id ?? '', ...r })));
}

async function addChip(accountId: string) {
  const id = newId();
  await s.t.server.services.db.insert(chips).values({ id, accountId, name: 'Chip', status: 'open' });
  return id;
}

const count = async (email: string) =>
  (await s.t.call('get-open-manual-conversation-count', {}, await s.t.login(email))).open_manual_count;

describe('get-open-manual-conversation-count (the bell)', () => {
  it('counts open human conversations; attendants only in their departments', async () => {
    const chip = await addChip(s.seed.accountId);
    const { support, sales } = s.seed.departments;
    const manual = { isManual: true };
    await addConversations(s.seed.accountId, chip, [
      ...Array.from({ length: 11 }, () => ({ ...manual, departmentId: support })),
      ...Array.from({ length: 3 }, () => ({ ...manual, departmentId: sales })),
      { ...manual, departmentId: null },
      // Not counted: finished, or answered by a chatbot.
      { ...manual, departmentId: support, finishedAt: new Date() },
      { isManual: false, chatbotType: 'chatbot', departmentId: support },
      { isManual: false, chatbotType: 'flow_chatbot', departmentId: sales },
    ]);
    expect(await count('dono@demo.com')).toBe(15);
    expect(await count('gerente@demo.com')).toBe(15);
    expect(await count('atendente@demo.com')).toBe(11);
    expect(await count('atendente2@demo.com')).toBe(3);
  });

  it("never counts another account's conversations", async () => {
    const chip = await addChip(s.seed.accountId);
    await addConversations(s.seed.accountId, chip, [
      { isManual: true, departmentId: s.seed.departments.support },
    ]);
    // The platform admin's account is another account.
    expect(await count('admin@demo.com')).toBe(0);
    expect(await count('dono@demo.com')).toBe(1);
  });

  it('is zero for an attendant without departments, and needs a token', async () => {
    const chip = await addChip(s.seed.accountId);
    await addConversations(s.seed.accountId, chip, [{ isManual: true, departmentId: null }]);
    expect(await count('dono@demo.com')).toBe(1);
    // An attendant with no department sees nothing, not every conversation.
    await s.t.server.services.db
      .update(users)
      .set({ departments: [] })
      .where(eq(users.email, 'atendente@demo.com'));
    expect(await count('atendente@demo.com')).toBe(0);

    const anonymous = await s.t.post('get-open-manual-conversation-count', {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ error: true, logout: true });
  });
});
