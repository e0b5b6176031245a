// Conversations, their messages and chips as an actor reaches them: always its account, and for attendants
// their departments. A row outside them is answered as missing, never as someone else's.
import {
  and,
  count,
  desc,
  eq,
  inArray,
  isNotNull,
  isNull,
  lt,
  type Placeholder,
  type SQL,
  sql,
} from 'drizzle-orm';
import { OFFICIAL_CHANNEL_TYPE } from '../../../shared/constants';
import { newId } from '../../../shared/ids';
import { messages as texts } from '../../../shared/messages';
import { type Actor, actorSeesDepartment, assertSees, departmentCondition } from '../../access';
import type { ChipRow } from '../../channels/adapter';
import type { Db } from '../../db';
import { insertOnce } from '../../db/insert-once';
import { inPieces } from '../../db/pieces';
import { prepared } from '../../db/prepared';
import { chips, contacts, conversations, departments, messages } from '../../db/schema';
import { AppError } from '../../http/errors';
import { claimRanOut } from './delivery';

export type ConversationChange = Partial<typeof conversations.$inferInsert>;
export type FinishedConversation = { id: string; departmentId: string | null };

/** The contact's open conversation on the chip, if any. */
const openOn = (chipId: string | Placeholder, contactId: string | Placeholder) =>
  and(
    eq(conversations.chipId, chipId),
    eq(conversations.contactId, contactId),
    isNull(conversations.finishedAt),
  );

/** Who serves a conversation opened by openOrFind (and any other column to set on it). */
export type OpeningValues = Pick<typeof conversations.$inferInsert, 'departmentId' | 'isManual'> &
  Partial<typeof conversations.$inferInsert>;

const activity = sql`coalesce(${conversations.lastMessageAt}, ${conversations.createdAt})`;

/** Finishes the account's open conversations that `where` picks (in `db`, maybe a transaction). */
const finishWhere = (db: Db, actor: Actor, where: SQL | undefined): Promise<FinishedConversation[]> =>
  db
    .update(conversations)
    .set({ finishedAt: new Date() })
    .where(and(eq(conversations.accountId, actor.accountId), isNull(conversations.finishedAt), where))
    .returning({ id: conversations.id, departmentId: conversations.departmentId });

/** The message of that message_id (the sender's idempotency key) in the actor's account. */
const byMessageId = (actor: Actor, messageId: string) =>
  and(eq(messages.accountId, actor.accountId), eq(messages.messageId, messageId));

export const conversationsRepo = {
  /** The conversation with its chip and contact, when the actor sees it; otherwise 'not found'. */
  async visible(db: Db, actor: Actor, conversationId: string) {
    // Prepared: every call on a conversation (a send above all) reads it, three wide tables built once.
    const [row] = await prepared(db, 'visible_conversation', (d) =>
      d
        .select({ conversation: conversations, chip: chips, contact: contacts })
        .from(conversations)
        .innerJoin(chips, eq(chips.id, conversations.chipId))
        .innerJoin(contacts, eq(contacts.id, conversations.contactId))
        .where(
          and(
            eq(conversations.id, sql.placeholder('id')),
            eq(conversations.accountId, sql.placeholder('account')),
          ),
        )
        .limit(1)
        .prepare('visible_conversation'),
    ).execute({ id: conversationId, account: actor.accountId });
    assertSees(actor, row?.conversation);
    return row as NonNullable<typeof row>;
  },
  /** A chip the actor may use (attendants: their departments' chips); otherwise 'not found'. */
  async visibleChip(db: Db, actor: Actor, chipId: string): Promise<ChipRow> {
    const [chip] = await db
      .select()
      .from(chips)
      .where(and(eq(chips.id, chipId), eq(chips.accountId, actor.accountId), eq(chips.filed, false)))
      .limit(1);
    if (!chip || !actorSeesDepartment(actor, chip.departmentId)) throw new AppError(texts.notFound);
    return chip;
  },
  /** A message of the actor's account by its id, or null (its conversation is checked by the caller). */
  async message(db: Db, actor: Actor, messageId: string) {
    const [row] = await db
      .select()
      .from(messages)
      .where(and(eq(messages.id, messageId), eq(messages.accountId, actor.accountId)))
      .limit(1);
    return row ?? null;
  },
  /** The bell (spec 1 "Shell elements"): open human conversations the actor may see. */
  async openManualCount(db: Db, actor: Actor) {
    const [row] = await db
      .select({ n: count() })
      .from(conversations)
      .where(
        and(
          eq(conversations.accountId, actor.accountId),
          eq(conversations.isManual, true),
          isNull(conversations.finishedAt),
          departmentCondition(actor, conversations.departmentId),
        ),
      );
    return row?.n ?? 0;
  },
  /** Saves a change to a conversation of the actor's account (in `db`, maybe a transaction). */
  async update(db: Db, actor: Actor, conversationId: string, set: ConversationChange) {
    await db
      .update(conversations)
      .set(set)
      .where(and(eq(conversations.id, conversationId), eq(conversations.accountId, actor.accountId)));
  },
  /** A contact's tags, replaced (a transfer's tags, in its transaction). */
  async setContactTags(db: Db, actor: Actor, contactId: string, tags: string[]) {
    await db
      .update(contacts)
      .set({ tags })
      .where(and(eq(contacts.id, contactId), eq(contacts.accountId, actor.accountId)));
  },
  /** The account's department of that id (not deleted), or null. */
  async department(db: Db, actor: Actor, id: string) {
    const [department] = await db
      .select({ id: departments.id })
      .from(departments)
      .where(
        and(eq(departments.id, id), eq(departments.accountId, actor.accountId), eq(departments.filed, false)),
      );
    return department ?? null;
  },
  /** The contact's open conversation on the chip, if any (its id). */
  async openOnChip(db: Db, actor: Actor, chipId: string, contactId: string) {
    const [open] = await db
      .select({ id: conversations.id })
      .from(conversations)
      .where(
        and(
          eq(conversations.accountId, actor.accountId),
          eq(conversations.chipId, chipId),
          eq(conversations.contactId, contactId),
          isNull(conversations.finishedAt),
        ),
      )
      .limit(1);
    return open ?? null;
  },
  /** Opens a finished conversation again; empty when it was not finished (of several resumes, one wins). */
  resume(db: Db, actor: Actor, conversationId: string) {
    return db
      .update(conversations)
      .set({ finishedAt: null })
      .where(
        and(
          eq(conversations.id, conversationId),
          eq(conversations.accountId, actor.accountId),
          isNotNull(conversations.finishedAt),
        ),
      )
      .returning({ id: conversations.id });
  },
  /**
   * Finishes an open conversation by the id the caller holds (an engine's own conversation, or one the actor
   * was checked to see); null when it was finished already.
   */
  async finishOpen(db: Db, conversationId: string) {
    const [row] = await db
      .update(conversations)
      .set({ finishedAt: new Date() })
      .where(and(eq(conversations.id, conversationId), isNull(conversations.finishedAt)))
      .returning();
    return row ?? null;
  },
  /**
   * Bulk finish: the account's open conversations with no message since `before`. In pieces, each a transaction
   * of its own (issue 37): thousands finished in one statement hold the embedded database for half a second
   * and more. A piece picks its conversations by the open conversations' index.
   */
  async finishInactive(db: Db, actor: Actor, before: Date) {
    const finished: FinishedConversation[] = [];
    await inPieces(db, async (tx, rows) => {
      const inactive = tx
        .select({ id: conversations.id })
        .from(conversations)
        .where(
          and(
            eq(conversations.accountId, actor.accountId),
            isNull(conversations.finishedAt),
            lt(activity, before),
          ),
        )
        .limit(rows);
      const piece = await finishWhere(tx, actor, inArray(conversations.id, inactive));
      finished.push(...piece);
      return piece.length === rows;
    });
    return finished;
  },
  /** The contact's open conversations, finished (a deleted contact). */
  finishOfContact: (db: Db, actor: Actor, contactId: string) =>
    finishWhere(db, actor, eq(conversations.contactId, contactId)),
  /** A page of a conversation's messages before `before` (newest first). */
  messagesPage(db: Db, actor: Actor, conversationId: string, before: string | undefined, limit: number) {
    return db
      .select()
      .from(messages)
      .where(
        and(
          eq(messages.conversationId, conversationId),
          eq(messages.accountId, actor.accountId),
          before ? lt(messages.createdAt, new Date(before)) : undefined,
        ),
      )
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(limit);
  },
  /** The condition 'the message of that message_id' (an append's `existing`). */
  byMessageId,
  /** Whether a message of that message_id is stored already. */
  async messageIdTaken(db: Db, actor: Actor, messageId: string) {
    const [existing] = await db
      .select({ id: messages.id })
      .from(messages)
      .where(byMessageId(actor, messageId))
      .limit(1);
    return existing !== undefined;
  },
  /** The message of that message_id, and whether its send's claim ran out (a crash cut it off). */
  async storedSend(db: Db, actor: Actor, messageId: string) {
    const [row] = await db
      .select({ message: messages, cutOff: claimRanOut() })
      .from(messages)
      .where(byMessageId(actor, messageId))
      .limit(1);
    return row ?? null;
  },
  /** A message of that conversation by its id (a reply's quoted message), or undefined. */
  async messageIn(db: Db, actor: Actor, conversationId: string, messageId: string) {
    const [quoted] = await db
      .select()
      .from(messages)
      .where(
        and(
          eq(messages.id, messageId),
          eq(messages.conversationId, conversationId),
          eq(messages.accountId, actor.accountId),
        ),
      )
      .limit(1);
    return quoted;
  },
  /** Marks a message deleted (for everyone); the row as it is now. */
  async deleteMessage(db: Db, actor: Actor, messageId: string) {
    const [updated] = await db
      .update(messages)
      .set({ deleted: true })
      .where(and(eq(messages.id, messageId), eq(messages.accountId, actor.accountId)))
      .returning();
    return updated;
  },
  /** The account's contact of that phone (not deleted), or undefined. */
  async contactOfPhone(db: Db, actor: Actor, phone: string) {
    const [known] = await db
      .select()
      .from(contacts)
      .where(
        and(eq(contacts.accountId, actor.accountId), eq(contacts.phone, phone), eq(contacts.filed, false)),
      )
      .limit(1);
    return known;
  },
  /** The contact of that phone, made when new; a known one gains the channel's contact id when it had none. */
  async upsertContact(db: Db, actor: Actor, phone: string, channelContactId: string | null) {
    const [row] = await db
      .insert(contacts)
      .values({ id: newId(), accountId: actor.accountId, phone, name: '', channelContactId })
      .onConflictDoUpdate({
        target: [contacts.accountId, contacts.phone],
        targetWhere: sql`${contacts.filed} = false`,
        set: { channelContactId: sql`coalesce(${contacts.channelContactId}, excluded.channel_contact_id)` },
      })
      .returning();
    if (!row) throw new Error('contact upsert returned nothing');
    return row;
  },
  /** The contact's open conversation on the chip, if any (the chip names the account). */
  async openConversation(db: Db, chipId: string, contactId: string) {
    const [row] = await prepared(db, 'open_conversation', (d) =>
      d
        .select()
        .from(conversations)
        .where(openOn(sql.placeholder('chip'), sql.placeholder('contact')))
        .limit(1)
        .prepare('open_conversation'),
    ).execute({ chip: chipId, contact: contactId });
    return row;
  },
  /**
   * A new open conversation of the contact on the chip, in the chip's account; when one is open already (a
   * race the open-conversation index settles) that one, `created` false.
   */
  async insertOpen(db: Db, chip: ChipRow, contactId: string, values: OpeningValues) {
    const opened = await insertOnce(
      db,
      conversations,
      {
        ...values,
        id: newId(),
        accountId: chip.accountId,
        chipId: chip.id,
        contactId,
        isNew: true,
        channelType: chip.official ? OFFICIAL_CHANNEL_TYPE : null,
      },
      openOn(chip.id, contactId),
    );
    if (!opened) throw new Error('open conversation vanished');
    return opened;
  },
};
