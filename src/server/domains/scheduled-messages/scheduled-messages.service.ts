// The scheduled messages' writes (the calls' SQL lives here, not in the routes).
import { and, eq } from 'drizzle-orm';
import { newId } from '../../../shared/ids';
import { messages as texts } from '../../../shared/messages';
import { insertOnce } from '../../db/insert-once';
import { scheduledMessages } from '../../db/schema';
import type { SignedInContext } from '../../http/context';
import { AppError } from '../../http/errors';

type Fields = Omit<typeof scheduledMessages.$inferInsert, 'id' | 'accountId' | 'userId'>;

/** Creates the item once per `id` (named by the dialog): a repeat, even at once, answers the first one. */
export async function createScheduledItem(ctx: SignedInContext, fields: Fields, id: string = newId()) {
  const { accountId } = ctx.user;
  const stored = await insertOnce(
    ctx.services.db,
    scheduledMessages,
    { ...fields, id, accountId, userId: ctx.user.id },
    and(eq(scheduledMessages.id, id), eq(scheduledMessages.accountId, accountId)),
  );
  // The id is another account's.
  if (!stored) throw new AppError(texts.notFound);
  return stored.row;
}
