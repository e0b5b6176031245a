import type { QuickMessage } from '../../../shared/contract/configuration';
import { messages } from '../../../shared/messages';
import { fieldError } from '../../../shared/rules/field-error';
import { prepareQuickMessage } from '../../../shared/rules/quick-message';
import type { Handlers } from '../../http/context';
import { softSave } from '../soft-save';
import { type QuickMessageRow, quickMessagesRepo } from './quick-messages.repo';

const toQuickMessage = (q: QuickMessageRow): QuickMessage => ({
  _id: q.id,
  shortcut: q.shortcut,
  message: q.message,
  filed: q.filed,
});

export const quickMessagesHandlers = {
  'get-quick-messages-by-user': async (_p, ctx) =>
    (await quickMessagesRepo.list(ctx.services.db, ctx.actor)).map(toQuickMessage),
  'create-or-update-quick-message': async (p, ctx) => {
    const { db } = ctx.services;
    const existing = p.filed ? [] : await quickMessagesRepo.list(db, ctx.actor);
    const row = await softSave(quickMessagesRepo, db, ctx.actor, p, () => {
      const r = prepareQuickMessage(p);
      if (!r.ok) return r;
      // One shortcut, one message: the '/' menu in the message box picks by shortcut.
      const shortcut = r.quickMessage.shortcut.toLocaleLowerCase('pt-BR');
      if (existing.some((q) => q.id !== p._id && q.shortcut.toLocaleLowerCase('pt-BR') === shortcut)) {
        return { ok: false, error: fieldError('shortcut', messages.quickMessageShortcutTaken) };
      }
      return { ok: true, fields: r.quickMessage };
    });
    return toQuickMessage(row);
  },
} satisfies Handlers;
