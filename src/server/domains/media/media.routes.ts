// The media library: named files of the account, checked by their content (magic bytes), stored under a
// generated name and listed by type. Deleting keeps the file while a sent message still shows it.
import { and, desc, eq } from 'drizzle-orm';
import { LIBRARY_MEDIA } from '../../../shared/constants';
import type { LibraryMedia } from '../../../shared/contract/media';
import { newId } from '../../../shared/ids';
import { messages as texts } from '../../../shared/messages';
import { mediaLibrary, messages } from '../../db/schema';
import type { Handlers } from '../../http/context';
import { AppError } from '../../http/errors';

const toMedia = (m: typeof mediaLibrary.$inferSelect): LibraryMedia => ({
  _id: m.id,
  type: m.type,
  name: m.name,
  url: m.url,
  mime: m.mime,
  size: m.size,
  ptt: m.ptt,
  created: m.createdAt.toISOString(),
});

export const mediaHandlers = {
  'get-medias-by-user': async (p, ctx) => {
    const account = eq(mediaLibrary.accountId, ctx.user.accountId);
    const rows = await ctx.services.db
      .select()
      .from(mediaLibrary)
      .where(p.type ? and(account, eq(mediaLibrary.type, p.type)) : account)
      .orderBy(desc(mediaLibrary.createdAt), desc(mediaLibrary.id));
    return rows.map(toMedia);
  },
  'upload-media': async (p, ctx) => {
    const file = ctx.file;
    if (!file || file.buffer.length === 0) throw new AppError(texts.mediaFileRequired);
    const kind = await ctx.services.media.classify(file.buffer, file.filename);
    if (!kind || kind.kind !== p.type || !LIBRARY_MEDIA[p.type].includes(kind.mime)) {
      throw new AppError(texts.mediaLibraryType);
    }
    const stored = await ctx.services.media.save(file.buffer, kind.ext, kind.mime);
    const [row] = await ctx.services.db
      .insert(mediaLibrary)
      .values({
        id: newId(),
        accountId: ctx.user.accountId,
        userId: ctx.user.id,
        type: kind.kind,
        name: p.name,
        url: stored.url,
        mime: kind.mime,
        size: file.buffer.length,
        ptt: p.type === 'audio' && p.ptt,
      })
      .returning();
    if (!row) throw new Error('media row not stored');
    return toMedia(row);
  },
  'delete-media': async (p, ctx) => {
    const { db, media } = ctx.services;
    const [row] = await db
      .delete(mediaLibrary)
      .where(and(eq(mediaLibrary.id, p._id), eq(mediaLibrary.accountId, ctx.user.accountId)))
      .returning();
    if (!row) throw new AppError(texts.notFound);
    // The file goes too, unless a sent message still shows it.
    const [used] = await db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.accountId, row.accountId), eq(messages.mediaUrl, row.url)))
      .limit(1);
    if (!used) await media.remove(row.url);
    return { _id: row.id };
  },
} satisfies Handlers;
