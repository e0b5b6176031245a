// Conversations, their messages and chips as an actor reaches them: always its account, and for attendants
// their departments. A row outside them is answered as missing, never as someone else's.
import { and, eq, sql } from 'drizzle-orm';
import { messages as texts } from '../../../shared/messages';
import { type Actor, actorSeesDepartment, assertSees } from '../../access';
import type { ChipRow } from '../../channels/adapter';
import type { Db } from '../../db';
import { prepared } from '../../db/prepared';
import { chips, contacts, conversations, messages } from '../../db/schema';
import { AppError } from '../../http/errors';

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
};
