// A conversation's message rows as the message path reaches them: the inbound pipeline (by the provider's id
// on a chip), the 'answered' rule and the typing indicator. The pipeline acts as its chip's account
// (systemActor); the statements keep the provider's unique key (chip, platform_message_id) as their index.
import { and, desc, eq, gt, gte, inArray, notInArray, type SQL, sql } from 'drizzle-orm';
import { MESSAGE_STATUS } from '../../../shared/constants';
import type { Actor } from '../../access';
import type { Db } from '../../db';
import { prepared } from '../../db/prepared';
import { chips, contacts, conversations, messages } from '../../db/schema';

export type MessageRow = typeof messages.$inferSelect;
export type NewMessageRow = typeof messages.$inferInsert;
export type ConversationRow = typeof conversations.$inferSelect;
/** The unique key a message may be stored under already (a replayed webhook, a retried send). */
export type MessageKey = SQL;

/** The message a channel names: its provider id on the chip (unique). */
const byPlatformId = (chipId: string, platformMessageId: string) =>
  and(eq(messages.chipId, chipId), eq(messages.platformMessageId, platformMessageId));

export const messagesRepo = {
  /** The key of a customer's message: its provider id on the chip. */
  platformKey: (_actor: Actor, chipId: string, platformMessageId: string): MessageKey =>
    byPlatformId(chipId, platformMessageId) as SQL,

  /** Whether a message is stored under this provider id, for a contact the inbound lookup did not find. */
  async storedId(db: Db, _actor: Actor, chipId: string, platformMessageId: string) {
    const [row] = await prepared(db, 'inbound_seen', (d) =>
      d
        .select({ id: messages.id })
        .from(messages)
        .where(
          and(
            eq(messages.chipId, sql.placeholder('chip')),
            eq(messages.platformMessageId, sql.placeholder('platform')),
          ),
        )
        .limit(1)
        .prepare('inbound_seen'),
    ).execute({ chip: chipId, platform: platformMessageId });
    return row?.id ?? null;
  },

  /** A stored message (a replay's) with its conversation and whether its contact is ignored. */
  async withConversation(db: Db, _actor: Actor, messageId: string) {
    const [row] = await db
      .select({ message: messages, conversation: conversations, ignore: contacts.ignore })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .innerJoin(contacts, eq(contacts.id, conversations.contactId))
      .where(eq(messages.id, messageId))
      .limit(1);
    return row;
  },

  /** The message a customer's reply quotes, by its provider id on the chip. */
  async byPlatformId(db: Db, _actor: Actor, chipId: string, platformMessageId: string) {
    const [row] = await db.select().from(messages).where(byPlatformId(chipId, platformMessageId)).limit(1);
    return row;
  },

  /** Whether a message is stored under this provider id (a receipt's). */
  async exists(db: Db, _actor: Actor, chipId: string, platformMessageId: string) {
    const rows = await db
      .select({ id: messages.id })
      .from(messages)
      .where(byPlatformId(chipId, platformMessageId))
      .limit(1);
    return rows.length > 0;
  },

  /** A receipt's failure: counts only before delivery (a late failure of a delivered message is noise). */
  receiptFailed: (tx: Db, _actor: Actor, chipId: string, platformMessageId: string, reason: string | null) =>
    tx
      .update(messages)
      .set({ status: MESSAGE_STATUS.failed, failure: reason })
      .where(
        and(
          byPlatformId(chipId, platformMessageId),
          sql`${messages.status} between 0 and ${MESSAGE_STATUS.sent}`,
        ),
      )
      .returning(),

  /** A receipt's sent/delivered/read: the status never goes backwards. */
  receiptStatus: (db: Db, _actor: Actor, chipId: string, platformMessageId: string, value: number) =>
    db
      .update(messages)
      .set({ status: value })
      .where(
        and(
          byPlatformId(chipId, platformMessageId),
          gte(sql`${value}`, messages.status),
          sql`${messages.status} <> ${value}`,
        ),
      )
      .returning(),

  // A media retry (the channels' job) holds only the chip's id: these two go by the provider's key alone.

  /** Where a customer's media stands: its type and file, by its provider id. */
  async mediaState(db: Db, chipId: string, platformMessageId: string) {
    const [row] = await db
      .select({ type: messages.type, mediaUrl: messages.mediaUrl })
      .from(messages)
      .where(byPlatformId(chipId, platformMessageId))
      .limit(1);
    return row;
  },

  /** A media downloaded late replaces the text notice (only a notice: a second retry changes nothing). */
  async replaceNotice(
    db: Db,
    chipId: string,
    platformMessageId: string,
    set: Pick<NewMessageRow, 'type' | 'message' | 'mediaUrl' | 'fileName' | 'ptt' | 'audioSeconds'>,
  ) {
    const [row] = await db
      .update(messages)
      .set(set)
      .where(
        and(
          eq(messages.chipId, chipId),
          eq(messages.platformMessageId, platformMessageId),
          eq(messages.type, 'text'),
          sql`${messages.mediaUrl} is null`,
        ),
      )
      .returning();
    return row;
  },

  /** A customer's edit or delete-for-everyone: only the customer's own message, and only when it changes. */
  async applyCustomerChange(
    db: Db,
    _actor: Actor,
    chipId: string,
    platformMessageId: string,
    change: { text: string } | { deleted: true },
  ) {
    const set = 'text' in change ? { message: change.text } : { deleted: true };
    const same =
      'text' in change
        ? sql`${messages.message} is distinct from ${change.text}`
        : eq(messages.deleted, false);
    const [row] = await db
      .update(messages)
      .set(set)
      .where(
        and(
          eq(messages.chipId, chipId),
          eq(messages.platformMessageId, platformMessageId),
          eq(messages.origin, 'customer'),
          same,
        ),
      )
      .returning();
    return row;
  },

  /** The department of a message's conversation (the room its events go to). */
  async conversationDepartment(db: Db, _actor: Actor, conversationId: string) {
    const [row] = await db
      .select({ departmentId: conversations.departmentId })
      .from(conversations)
      .where(eq(conversations.id, conversationId));
    return row;
  },

  // The 'answered' rule (answered.ts), inside the transaction that records a send's outcome.

  /** Locks the conversation: a customer message being appended waits for it. */
  lockConversation: (tx: Db, _actor: Actor, conversationId: string) =>
    tx
      .select({ id: conversations.id })
      .from(conversations)
      .where(eq(conversations.id, conversationId))
      .for('update'),

  /** A customer message stored after `sent` (by its own time, to the microsecond), or none. */
  async customerAfter(tx: Db, _actor: Actor, sent: MessageRow) {
    const [newer] = await tx
      .select({ id: messages.id })
      .from(messages)
      .where(
        and(
          eq(messages.conversationId, sent.conversationId),
          eq(messages.origin, 'customer'),
          // The sent row's own time, to the microsecond (a JS Date keeps milliseconds only).
          gt(messages.createdAt, sql`(select created_at from messages where id = ${sent.id})`),
        ),
      )
      .limit(1);
    return newer;
  },

  /** No longer new, and no longer waiting unless `newer`; answers whether the conversation changed. */
  async markAnswered(tx: Db, _actor: Actor, conversationId: string, newer: boolean) {
    const changed = await tx
      .update(conversations)
      .set({ isNew: false, ...(!newer && { waitingResponse: false }) })
      .where(
        and(
          eq(conversations.id, conversationId),
          newer
            ? eq(conversations.isNew, true)
            : sql`(${conversations.isNew} or ${conversations.waitingResponse})`,
        ),
      )
      .returning({ id: conversations.id });
    return changed.length > 0;
  },

  /** The origin of the last message that reached one side or the other (customer or user). */
  async lastReached(tx: Db, _actor: Actor, conversationId: string) {
    const [last] = await tx
      .select({ origin: messages.origin })
      .from(messages)
      .where(
        and(
          eq(messages.conversationId, conversationId),
          inArray(messages.origin, ['customer', 'user']),
          // Reached the other side: a pending send has not answered yet (its outcome decides then).
          gte(messages.status, MESSAGE_STATUS.sent),
          notInArray(messages.type, ['summary', 'system']),
        ),
      )
      .orderBy(sql`${messages.createdAt} desc, ${messages.id} desc`)
      .limit(1);
    return last;
  },

  /** The customer waits again; answers whether the conversation changed. */
  async reopenWaiting(tx: Db, _actor: Actor, conversationId: string) {
    const changed = await tx
      .update(conversations)
      .set({ waitingResponse: true })
      .where(and(eq(conversations.id, conversationId), eq(conversations.waitingResponse, false)))
      .returning({ id: conversations.id });
    return changed.length > 0;
  },

  // The typing indicator (typing.ts): by conversation id, as the engines hold it.

  /** The conversation's chip and the contact's addresses. */
  async typingTarget(db: Db, conversationId: string) {
    const [row] = await db
      .select({ chip: chips, phone: contacts.phone, channelContactId: contacts.channelContactId })
      .from(conversations)
      .innerJoin(chips, eq(chips.id, conversations.chipId))
      .innerJoin(contacts, eq(contacts.id, conversations.contactId))
      .where(eq(conversations.id, conversationId));
    return row;
  },

  /** The provider id of the customer's last message. */
  async lastCustomerPlatformId(db: Db, conversationId: string) {
    const [last] = await db
      .select({ id: messages.platformMessageId })
      .from(messages)
      .where(and(eq(messages.conversationId, conversationId), eq(messages.origin, 'customer')))
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(1);
    return last?.id ?? null;
  },
};
