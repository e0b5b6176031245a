// The media library: named files of the account, checked by their content (magic bytes), stored under a
// generated name and listed by type. Deleting keeps the file while a sent message still shows it.
import { LIBRARY_MEDIA } from '../../../shared/constants';
import type { LibraryMedia } from '../../../shared/contract/media';
import { newId } from '../../../shared/ids';
import { messages as texts } from '../../../shared/messages';
import type { Handlers } from '../../http/context';
import { AppError } from '../../http/errors';
import { type MediaRow, mediaRepo } from './media.repo';

const toMedia = (m: MediaRow): LibraryMedia => ({
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
  'get-medias-by-user': async (p, ctx) =>
    (await mediaRepo.list(ctx.services.db, ctx.actor, p.type)).map(toMedia),
  'upload-media': async (p, ctx) => {
    const file = ctx.file;
    if (!file || file.buffer.length === 0) throw new AppError(texts.fileRequired);
    const kind = await ctx.services.media.classify(file.buffer, file.filename);
    if (!kind || kind.kind !== p.type || !LIBRARY_MEDIA[p.type].includes(kind.mime)) {
      throw new AppError(texts.mediaLibraryType);
    }
    const stored = await ctx.services.media.save(file.buffer, kind.ext, kind.mime);
    const row = await mediaRepo.insert(ctx.services.db, ctx.actor, {
      id: newId(),
      userId: ctx.user.id,
      type: kind.kind,
      name: p.name,
      url: stored.url,
      mime: kind.mime,
      size: file.buffer.length,
      ptt: p.type === 'audio' && p.ptt,
    });
    return toMedia(row);
  },
  'delete-media': async (p, ctx) => {
    const { db, media } = ctx.services;
    const row = await mediaRepo.remove(db, ctx.actor, p._id);
    if (!row) throw new AppError(texts.notFound);
    // The file goes too, unless a sent message still shows it.
    if (!(await mediaRepo.shownInMessages(db, ctx.actor, row.url))) await media.remove(row.url);
    return { _id: row.id };
  },
} satisfies Handlers;
