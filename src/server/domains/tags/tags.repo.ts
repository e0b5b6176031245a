// The account's tags: the common scoped shape (db/scoped.ts) and the lookups other domains make by tag id.
import { and, eq, inArray } from 'drizzle-orm';
import type { Actor } from '../../access';
import type { Db } from '../../db';
import { tags } from '../../db/schema';
import { scopedRepo } from '../../db/scoped';

export type TagRow = typeof tags.$inferSelect;

export const tagsRepo = {
  ...scopedRepo(tags),
  /** How many of these ids are active tags of the actor's account. */
  async countActive(db: Db, actor: Actor, ids: readonly string[]): Promise<number> {
    if (!ids.length) return 0;
    const found = await db
      .select({ id: tags.id })
      .from(tags)
      .where(and(eq(tags.accountId, actor.accountId), eq(tags.filed, false), inArray(tags.id, [...ids])));
    return found.length;
  },
  /** Every tag's name by id, filed ones too (an old contact may still carry one). */
  async names(db: Db, actor: Actor): Promise<Map<string, string>> {
    const rows = await db
      .select({ id: tags.id, name: tags.name })
      .from(tags)
      .where(eq(tags.accountId, actor.accountId));
    return new Map(rows.map((t) => [t.id, t.name]));
  },
};
