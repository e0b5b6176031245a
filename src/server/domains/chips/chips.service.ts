// Channels (spec 3 §2.6, §4, §5): create, edit, delete, connect, disconnect, reset; plan limits; support's
// calls for official numbers. Talking to the provider is the adapter's job (src/server/channels).
import { and, asc, count, eq } from 'drizzle-orm';
import type { Chip } from '../../../shared/contract';
import { newId } from '../../../shared/ids';
import { messages } from '../../../shared/messages';
import { baileysMessages as baileysTexts } from '../../../shared/messages-baileys';
import { type ChipInput, prepareChip } from '../../../shared/rules/chip';
import { fieldError } from '../../../shared/rules/field-error';
import { departmentCondition } from '../../access';
import { ChannelError, type ChipRow } from '../../channels/adapter';
import { insertOnce } from '../../db/insert-once';
import { accounts, chips, departments } from '../../db/schema';
import type { SignedInContext } from '../../http/context';
import { AppError, fieldFailure } from '../../http/errors';
import type { Services } from '../../services';
import { chatbotsRepo } from '../chatbots/chatbots.repo';
import { flowsRepo } from '../flows/flows.repo';

export const toChip = (c: ChipRow): Chip => ({
  _id: c.id,
  name: c.name,
  status: c.status,
  official: c.official,
  provider: c.provider,
  redirect: c.redirect,
  chatbot: c.chatbotId,
  flow: c.flowId,
  waba: c.waba,
  department: c.departmentId,
  display_phone_number: c.displayPhoneNumber,
  phone_number_quality: c.phoneNumberQuality,
  phone_number_id: c.phoneNumberId,
  registered: c.registered,
  qrcode: c.qrcode,
  ...(c.statusReason && { status_reason: c.statusReason }),
  active: c.active,
  reset: c.reset,
  changed: c.changed,
  limit: c.dailyLimit,
  filed: c.filed,
});

/** Attendants see only the chips of their departments (spec 1 §6); owners and managers see all. */
export async function listChips(ctx: SignedInContext): Promise<Chip[]> {
  const rows = await ctx.services.db
    .select()
    .from(chips)
    .where(
      and(
        eq(chips.accountId, ctx.actor.accountId),
        eq(chips.filed, false),
        departmentCondition(ctx.actor, chips.departmentId),
      ),
    )
    .orderBy(asc(chips.createdAt), asc(chips.id));
  return rows.map(toChip);
}

async function findChip(services: Services, accountId: string | null, id: string): Promise<ChipRow> {
  const [chip] = await services.db
    .select()
    .from(chips)
    .where(
      and(eq(chips.id, id), accountId ? eq(chips.accountId, accountId) : undefined, eq(chips.filed, false)),
    )
    .limit(1);
  if (!chip) throw new AppError(messages.notFound);
  return chip;
}

const reload = (services: Services, chip: ChipRow) => findChip(services, null, chip.id).then(toChip);

/** Provider failures become the adapter's pt-BR reason. */
async function viaAdapter<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ChannelError) throw new AppError(err.message);
    throw err;
  }
}

export async function saveChip(
  ctx: SignedInContext,
  p: ChipInput & { _id?: string; filed?: boolean; official: boolean },
): Promise<Chip> {
  const { services, user } = ctx;
  const { db } = services;
  if (p.filed) {
    if (!p._id) throw new AppError(messages.notFound);
    const [existing] = await db
      .select()
      .from(chips)
      .where(and(eq(chips.id, p._id), eq(chips.accountId, user.accountId)))
      .limit(1);
    if (!existing) throw new AppError(messages.notFound);
    if (existing.filed) return toChip(existing);
    // A deleted channel stops talking to the provider first.
    if (existing.status === 'open' || existing.status === 'connecting') {
      await services.channels
        .adapter(existing)
        .disconnect(existing)
        .catch((err: unknown) => services.log.warn({ err }, 'disconnect of a deleted chip failed'));
    }
    const [filed] = await db
      .update(chips)
      .set({ filed: true, status: 'close', qrcode: null })
      .where(eq(chips.id, existing.id))
      .returning();
    return toChip(filed ?? existing);
  }

  const prepared = prepareChip(p);
  if (!prepared.ok) throw fieldFailure(prepared.error);
  const fields = prepared.chip;
  const [department] = await db
    .select({ id: departments.id })
    .from(departments)
    .where(
      and(
        eq(departments.id, fields.department),
        eq(departments.accountId, user.accountId),
        eq(departments.filed, false),
      ),
    );
  if (!department) throw fieldFailure(fieldError('department', messages.departmentNotFound));
  // A chatbot of this account, not deleted.
  if (fields.chatbot && !(await chatbotsRepo.find(db, user.accountId, fields.chatbot)))
    throw fieldFailure(fieldError('chatbot', messages.chatbotNotFound));
  // A flow of this account, not deleted.
  if (fields.flow && !(await flowsRepo.find(db, user.accountId, fields.flow)))
    throw fieldFailure(fieldError('flow', messages.flowNotFound));
  const values = {
    name: fields.name,
    redirect: fields.redirect,
    chatbotId: fields.chatbot,
    flowId: fields.flow,
    departmentId: fields.department,
  };

  if (p._id) {
    const [updated] = await db
      .update(chips)
      .set(values)
      .where(and(eq(chips.id, p._id), eq(chips.accountId, user.accountId), eq(chips.filed, false)))
      .returning();
    if (updated) return toChip(updated);
  }

  // Creating: the account row is locked so two creations at once cannot both pass the plan limit.
  const created = await db.transaction(async (tx) => {
    const [account] = await tx.select().from(accounts).where(eq(accounts.id, user.accountId)).for('update');
    if (!account) throw new AppError(messages.notFound);
    const [used] = await tx
      .select({ n: count() })
      .from(chips)
      .where(
        and(eq(chips.accountId, user.accountId), eq(chips.filed, false), eq(chips.official, p.official)),
      );
    const max = p.official ? account.maxOfficialChannels : account.maxChannels;
    if ((used?.n ?? 0) >= max) {
      throw new AppError(
        p.official ? messages.officialChannelLimitReached(max) : messages.channelLimitReached(max),
      );
    }
    const id = p._id ?? newId();
    // The same creation arriving twice: the id is taken by the first, which is answered.
    const stored = await insertOnce(
      tx,
      chips,
      {
        ...values,
        id,
        accountId: user.accountId,
        official: p.official,
        // QR numbers: the server's adapter for them (CHANNEL_QR_PROVIDER); the chip keeps it for good.
        provider: p.official ? 'cloud-api' : services.config.qrProvider,
        // Spec 3 §4: new channels are created with status new (support sets an official one up later).
        status: 'new',
      },
      and(eq(chips.id, id), eq(chips.accountId, user.accountId), eq(chips.filed, false)),
    );
    return stored?.row ?? null;
  });
  // The id is another account's (or a deleted chip's).
  if (!created) throw new AppError(messages.notFound);
  return toChip(created);
}

export async function connectChip(ctx: SignedInContext, id: string, connect: boolean): Promise<Chip> {
  const { services } = ctx;
  const chip = await findChip(services, ctx.actor.accountId, id);
  const adapter = services.channels.adapter(chip);
  if (connect) {
    if (chip.official && !chip.registered) throw new AppError(messages.chipNotRegistered);
    if (chip.status !== 'open') await viaAdapter(() => adapter.connect(chip));
  } else {
    await viaAdapter(() => adapter.disconnect(chip));
  }
  return reload(services, chip);
}

export async function resetChipConnection(ctx: SignedInContext, id: string): Promise<Chip> {
  const { services } = ctx;
  const chip = await findChip(services, ctx.actor.accountId, id);
  await viaAdapter(() => services.channels.adapter(chip).reset(chip));
  await services.db.update(chips).set({ reset: true, qrcode: null }).where(eq(chips.id, chip.id));
  return reload(services, chip);
}

/** QR numbers: a pairing code to type on the phone, as an alternative to the QR code. */
export async function requestPairingCode(ctx: SignedInContext, id: string, phone: string) {
  const { services } = ctx;
  const chip = await findChip(services, ctx.actor.accountId, id);
  if (chip.provider !== 'baileys') throw new AppError(baileysTexts.notQrChip);
  const code = await viaAdapter(() => services.channels.baileys.pairingCode(chip, phone));
  return { code };
}

/** Support fills in an official number's provider data (any account: platform staff). */
export async function adminUpdateChip(
  ctx: SignedInContext,
  p: {
    _id: string;
    waba?: string | null;
    phone_number_id?: string | null;
    display_phone_number?: string | null;
    filed?: boolean;
  },
): Promise<Chip> {
  const { services } = ctx;
  const chip = await findChip(services, null, p._id);
  if (!chip.official && (p.waba !== undefined || p.phone_number_id !== undefined)) {
    throw new AppError(messages.chipNotOfficial);
  }
  const set: Partial<typeof chips.$inferInsert> = {};
  if (p.waba !== undefined) set.waba = p.waba;
  if (p.phone_number_id !== undefined) set.phoneNumberId = p.phone_number_id;
  if (p.display_phone_number !== undefined) set.displayPhoneNumber = p.display_phone_number;
  if (p.filed) set.filed = true;
  if (Object.keys(set).length === 0) return toChip(chip);
  try {
    const [row] = await services.db.update(chips).set(set).where(eq(chips.id, chip.id)).returning();
    return toChip(row ?? chip);
  } catch (err) {
    if (p.phone_number_id) {
      const [taken] = await services.db
        .select({ id: chips.id })
        .from(chips)
        .where(and(eq(chips.phoneNumberId, p.phone_number_id), eq(chips.filed, false)));
      if (taken) throw new AppError(messages.chipPhoneNumberIdTaken);
    }
    throw err;
  }
}

/** Support registers an official number with the provider, then marks it (spec 3 §4). */
export async function registerPhoneNumber(
  ctx: SignedInContext,
  id: string,
  register: boolean,
): Promise<Chip> {
  const { services } = ctx;
  const chip = await findChip(services, null, id);
  if (!chip.official) throw new AppError(messages.chipNotOfficial);
  if (!chip.phoneNumberId) throw new AppError(messages.chipNoPhoneNumberId);
  const adapter = services.channels.adapter(chip);
  await viaAdapter(async () => adapter.register?.(chip, register));
  const [row] = await services.db
    .update(chips)
    .set({ registered: register, status: register ? 'close' : 'configuring' })
    .where(eq(chips.id, chip.id))
    .returning();
  return toChip(row ?? chip);
}
