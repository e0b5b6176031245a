// The media library's rows, always through the actor's account.
import { and, desc, eq } from 'drizzle-orm';
import type { Actor } from '../../access';
import type { Db } from '../../db';
import { mediaLibrary, messages } from '../../db/schema';

export type MediaRow = typeof mediaLibrary.$inferSelect;

export const mediaRepo = {
  async list(db: Db, actor: Actor, type?: MediaRow['type']): Promise<MediaRow[]> {
    return db
      .select()
      .from(mediaLibrary)
      .where(and(eq(mediaLibrary.accountId, actor.accountId), type ? eq(mediaLibrary.type, type) : undefined))
      .orderBy(desc(mediaLibrary.createdAt), desc(mediaLibrary.id));
  },
  async insert(db: Db, actor: Actor, fields: Omit<typeof mediaLibrary.$inferInsert, 'accountId'>) {
    const [row] = await db
      .insert(mediaLibrary)
      .values({ ...fields, accountId: actor.accountId })
      .returning();
    if (!row) throw new Error('media row not stored');
    return row;
  },
  /** The library's file at `url`, when it is the actor's account's. */
  async byUrl(db: Db, actor: Actor, url: string): Promise<MediaRow | null> {
    const [row] = await db
      .select()
      .from(mediaLibrary)
      .where(and(eq(mediaLibrary.accountId, actor.accountId), eq(mediaLibrary.url, url)))
      .limit(1);
    return row ?? null;
  },
  async remove(db: Db, actor: Actor, id: string): Promise<MediaRow | null> {
    const [row] = await db
      .delete(mediaLibrary)
      .where(and(eq(mediaLibrary.id, id), eq(mediaLibrary.accountId, actor.accountId)))
      .returning();
    return row ?? null;
  },
  /** Whether a message of the actor's account still shows this file. */
  async shownInMessages(db: Db, actor: Actor, url: string) {
    const [used] = await db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.accountId, actor.accountId), eq(messages.mediaUrl, url)))
      .limit(1);
    return Boolean(used);
  },
};
