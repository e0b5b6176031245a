// The account's API key: the public API's callers are known by it. accountByKey is the one lookup made
// before anyone is known; whoever holds the key then acts as apiKeyActor(account.id) on that account only.
import { eq } from 'drizzle-orm';
import type { Actor } from '../../access';
import type { Db } from '../../db';
import { accounts } from '../../db/schema';

export const apiKeysRepo = {
  /** The account whose key this is, with what its plan allows; null for a key no account holds. */
  async accountByKey(db: Db, key: string) {
    const [account] = await db
      .select({
        id: accounts.id,
        campaignsEnabled: accounts.campaignsEnabled,
        maxChannels: accounts.maxChannels,
        maxOfficialChannels: accounts.maxOfficialChannels,
      })
      .from(accounts)
      .where(eq(accounts.apiKey, key))
      .limit(1);
    return account ?? null;
  },
  /** Whether the actor's account has generated its key (at /api). */
  async hasKey(db: Db, actor: Actor): Promise<boolean> {
    const [account] = await db
      .select({ apiKey: accounts.apiKey })
      .from(accounts)
      .where(eq(accounts.id, actor.accountId));
    return Boolean(account?.apiKey);
  },
};
