// The scheduled messages' writes (the calls' SQL lives here, not in the routes).
import { and, eq } from 'drizzle-orm';
import { newId } from '../../../shared/ids';
import { messages as texts } from '../../../shared/messages';
import { insertOnce } from '../../db/insert-once';
import { scheduledMessages } from '../../db/schema';
import type { SignedInContext } from '../../http/context';
import { AppError } from '../../http/errors';
import { queueScheduledMessage } from '../../jobs/scheduled-messages';

type Fields = Omit<typeof scheduledMessages.$inferInsert, 'id' | 'accountId' | 'userId'>;

/**
 * Creates the item once per `id` (named by the dialog): a repeat, even at once, answers the first one. The
 * row and its runner job are written in one transaction: never one without the other.
 */
export async function createScheduledItem(ctx: SignedInContext, fields: Fields, id: string = newId()) {
  const { accountId } = ctx.user;
  return ctx.services.db.transaction(async (tx) => {
    const stored = await insertOnce(
      tx,
      scheduledMessages,
      { ...fields, id, accountId, userId: ctx.user.id },
      and(eq(scheduledMessages.id, id), eq(scheduledMessages.accountId, accountId)),
    );
    // The id is another account's.
    if (!stored) throw new AppError(texts.notFound);
    if (stored.created) await queueScheduledMessage(ctx.services, tx, stored.row);
    return stored.row;
  });
}
