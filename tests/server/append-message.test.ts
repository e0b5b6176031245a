// Appending a message is one transaction (src/server/domains/conversations/append-message.ts): a crash
// between storing the message and updating its conversation leaves neither, so the replay (the provider
// sending the webhook again, the app retrying its send) does the whole append. The crash is real: a
// trigger makes the conversation's update fail once, as a killed process or a lost connection would.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { contacts, conversations, messages } from '@/server/db/schema';
import { connectedSimulatorChip } from './channel-helpers';
import { testServerPerFile } from './helpers';

const s = testServerPerFile();
const phone = '5511987650001';

/** The next update of any conversation fails (once). */
async function crashNextConversationUpdate() {
  const statements = [
    'drop sequence if exists crash_once',
    'create sequence crash_once',
    `create or replace function crash_once() returns trigger language plpgsql as $$
     begin
       if nextval('crash_once') = 1 then raise exception 'simulated crash'; end if;
       return new;
     end $$`,
    'drop trigger if exists crash_once on conversations',
    'create trigger crash_once before update on conversations for each row execute function crash_once()',
  ];
  for (const statement of statements) await s.t.server.services.db.execute(sql.raw(statement));
}

async function setup() {
  const owner = await s.t.login('dono@demo.com');
  const { simulatorToken } = await connectedSimulatorChip(s.t, owner, {
    department: s.seed.departments.support,
  });
  const inbound = (id: string, text: string) =>
    s.t.post('simulator-send', { token: simulatorToken, phone, id, type: 'text', text });
  expect((await inbound('first-message-1', 'Olá')).body.error).toBe(false);
  const { db } = s.t.server.services;
  const [contact] = await db.select().from(contacts).where(eq(contacts.phone, phone));
  const [conversation] = await db
    .select()
    .from(conversations)
    .where(eq(conversations.contactId, contact?.id ?? ''));
  if (!conversation) throw new Error('no conversation');
  await s.t.call(
    'change-conversation-data',
    { conversation_id: conversation.id, waiting_response: false },
    owner,
  );
  const reload = async () =>
    (await db.select().from(conversations).where(eq(conversations.id, conversation.id)))[0];
  return { owner, inbound, conversation, reload, db };
}

describe('append a message: one transaction', () => {
  it('an inbound message cut off before its conversation update is stored whole by the replay', async () => {
    const { inbound, reload, db } = await setup();
    await crashNextConversationUpdate();
    const cut = await inbound('second-message', 'Alguém aí?');
    expect(cut.status === 200 && !cut.body.error).toBe(false);
    // Nothing half-written: the message is not there without its conversation's change.
    const half = await db.select().from(messages).where(eq(messages.message, 'Alguém aí?'));
    expect(half).toEqual([]);

    const replay = await inbound('second-message', 'Alguém aí?');
    expect(replay.body.error).toBe(false);
    const [stored] = await db.select().from(messages).where(eq(messages.message, 'Alguém aí?'));
    const after = await reload();
    expect(after?.lastMessageId).toBe(stored?.id);
    expect(after?.waitingResponse).toBe(true);
  });

  it('the replay repairs a conversation that missed its message (stored before appends were one transaction)', async () => {
    const { inbound, reload, db, conversation } = await setup();
    expect((await inbound('second-message', 'Alguém aí?')).body.error).toBe(false);
    const before = await reload();
    // The state the old two-step write left after a crash: the message stored, the conversation stale.
    await db
      .update(conversations)
      .set({
        lastMessageId: conversation.lastMessageId,
        lastMessageAt: conversation.lastMessageAt,
        waitingResponse: false,
      })
      .where(eq(conversations.id, conversation.id));

    expect((await inbound('second-message', 'Alguém aí?')).body.error).toBe(false);
    const after = await reload();
    expect(after?.lastMessageId).toBe(before?.lastMessageId);
    expect(after?.waitingResponse).toBe(true);
    expect(await db.select().from(messages).where(eq(messages.message, 'Alguém aí?'))).toHaveLength(1);
  });

  it("an attendant's send cut off before its conversation update leaves no pending row; the retry sends it", async () => {
    const { owner, reload, db, conversation } = await setup();
    await s.t.call(
      'change-conversation-data',
      { conversation_id: conversation.id, waiting_response: false },
      owner,
    );
    await inboundAgain();
    async function inboundAgain() {
      // The customer wrote: the conversation waits for an answer.
      await db
        .update(conversations)
        .set({ waitingResponse: true })
        .where(eq(conversations.id, conversation.id));
    }
    await crashNextConversationUpdate();
    const body = { conversation_id: conversation.id, message_id: 'send-cut-off-1', text: 'Resposta' };
    const cut = await s.t.post('send-conversation-message', body, owner);
    expect(cut.status === 200 && !cut.body.error).toBe(false);
    expect(await db.select().from(messages).where(eq(messages.messageId, 'send-cut-off-1'))).toEqual([]);

    const retry = await s.t.call('send-conversation-message', body, owner);
    expect(retry.status).toBeGreaterThanOrEqual(1);
    const after = await reload();
    expect(after?.lastMessageId).toBe(retry._id);
    expect(after?.waitingResponse).toBe(false);
  });

  it('a system note is stored and leaves the conversation as it was', async () => {
    const { owner, reload, conversation } = await setup();
    const before = await reload();
    const note = await s.t.call(
      'create-system-message',
      { conversation_id: conversation.id, message: 'Nota' },
      owner,
    );
    expect(note.type).toBe('system');
    const after = await reload();
    expect(after?.lastMessageId).toBe(before?.lastMessageId);
  });
});
