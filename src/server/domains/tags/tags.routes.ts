import type { Tag } from '../../../shared/contract/configuration';
import { messages } from '../../../shared/messages';
import { fieldError } from '../../../shared/rules/field-error';
import { prepareTag } from '../../../shared/rules/tag';
import type { Handlers } from '../../http/context';
import { nameTaken, softSave } from '../soft-save';
import type { TagRow } from './tags.repo';
import { tagsRepo } from './tags.repo';

const toTag = (t: TagRow): Tag => ({
  _id: t.id,
  name: t.name,
  color: t.color,
  auto_tag: t.autoTag,
  keywords: t.keywords,
  filed: t.filed,
});

export const tagsHandlers = {
  'get-tags-by-user': async (_p, ctx) => (await tagsRepo.list(ctx.services.db, ctx.actor)).map(toTag),
  'create-or-update-tag': async (p, ctx) => {
    const { db } = ctx.services;
    const existing = p.filed ? [] : await tagsRepo.list(db, ctx.actor);
    const row = await softSave(
      tagsRepo,
      db,
      ctx.actor,
      p,
      () => {
        const r = prepareTag(p, p.pending_keyword);
        if (r.ok && nameTaken(existing, p._id, r.tag.name))
          return { ok: false, error: fieldError('name', messages.tagNameTaken) };
        return r.ok
          ? {
              ok: true,
              fields: {
                name: r.tag.name,
                color: r.tag.color,
                autoTag: r.tag.auto_tag,
                keywords: r.tag.keywords,
              },
            }
          : r;
      },
      fieldError('name', messages.tagNameTaken),
    );
    return toTag(row);
  },
} satisfies Handlers;
