import { staffActor } from '../../access';
import type { Handlers } from '../../http/context';
import {
  adminUpdateChip,
  connectChip,
  listChips,
  registerPhoneNumber,
  requestPairingCode,
  resetChipConnection,
  saveChip,
} from './chips.service';

export const chipsHandlers = {
  'get-chip-numbers-by-user': (_p, ctx) => listChips(ctx.services, ctx.actor),
  'create-or-update-chip': (p, ctx) =>
    saveChip(ctx.services, ctx.actor, { ...p, department: p.department || null }),
  'connect-chip': (p, ctx) => connectChip(ctx.services, ctx.actor, p._id, p.connect),
  'reset-chip-connection': (p, ctx) => resetChipConnection(ctx.services, ctx.actor, p._id),
  'request-pairing-code': (p, ctx) => requestPairingCode(ctx.services, ctx.actor, p._id, p.phone),
  // Support's calls on official numbers: platform staff, over every account.
  'admin-update-chip': (p, ctx) => adminUpdateChip(ctx.services, staffActor(ctx.user), p),
  'register-phone-number': (p, ctx) =>
    registerPhoneNumber(ctx.services, staffActor(ctx.user), p._id, p.register),
  // The simulator page's calls: public, the link's token is the key.
  'simulator-open': (p, ctx) => ctx.services.channels.simulator.open(p.token, p.pair),
  'simulator-set-menus': async (p, ctx) => {
    await ctx.services.channels.simulator.setMenus(p.token, p.numbered);
    return { ok: true as const };
  },
  'simulator-get-messages': (p, ctx) => ctx.services.channels.simulator.messages(p.token, p.phone),
  'simulator-send': (p, ctx) => ctx.services.channels.simulator.send(p),
  'simulator-upload': async (p, ctx) => {
    if (!ctx.file) throw new Error('upload without a file');
    return ctx.services.channels.simulator.upload(p.token, ctx.file);
  },
  'simulator-mark': async (p, ctx) => {
    await ctx.services.channels.simulator.mark(p.token, p.phone, p.ids, p.status);
    return { ok: true as const };
  },
} satisfies Handlers;
