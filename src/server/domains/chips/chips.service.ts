// Channels (spec 3 §2.6, §4, §5): create, edit, delete, connect, disconnect, reset; plan limits; support's
// calls for official numbers. Talking to the provider is the adapter's job (src/server/channels).
import type { Chip } from '../../../shared/contract';
import { newId } from '../../../shared/ids';
import { messages } from '../../../shared/messages';
import { baileysMessages as baileysTexts } from '../../../shared/messages-baileys';
import { type ChipInput, prepareChip } from '../../../shared/rules/chip';
import { fieldError } from '../../../shared/rules/field-error';
import { type Actor, type StaffActor, systemActor } from '../../access';
import { ChannelError, type ChipRow } from '../../channels/adapter';
import { AppError, fieldFailure } from '../../http/errors';
import type { Services } from '../../services';
import { chatbotsRepo } from '../chatbots/chatbots.repo';
import { departmentsRepo } from '../departments/departments.repo';
import { flowsRepo } from '../flows/flows.repo';
import { type ChipFields, chipsRepo, platformChipsRepo } from './chips.repo';

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
export async function listChips(services: Services, actor: Actor): Promise<Chip[]> {
  return (await chipsRepo.list(services.db, actor)).map(toChip);
}

async function findChip(services: Services, actor: Actor, id: string): Promise<ChipRow> {
  const chip = await chipsRepo.find(services.db, actor, id);
  if (!chip) throw new AppError(messages.notFound);
  return chip;
}

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
  services: Services,
  actor: Actor,
  p: ChipInput & { _id?: string; filed?: boolean; official: boolean },
): Promise<Chip> {
  const { db } = services;
  if (p.filed) {
    if (!p._id) throw new AppError(messages.notFound);
    const existing = await chipsRepo.findWithFiled(db, actor, p._id);
    if (!existing) throw new AppError(messages.notFound);
    if (existing.filed) return toChip(existing);
    // A deleted channel stops talking to the provider first.
    if (existing.status === 'open' || existing.status === 'connecting') {
      await services.channels
        .adapter(existing)
        .disconnect(existing)
        .catch((err: unknown) => services.log.warn({ err }, 'disconnect of a deleted chip failed'));
    }
    const filed = await chipsRepo.file(db, actor, existing.id);
    return toChip(filed ?? existing);
  }

  const prepared = prepareChip(p);
  if (!prepared.ok) throw fieldFailure(prepared.error);
  const fields = prepared.chip;
  if (!(await departmentsRepo.find(db, actor, fields.department)))
    throw fieldFailure(fieldError('department', messages.departmentNotFound));
  // A chatbot of this account, not deleted.
  if (fields.chatbot && !(await chatbotsRepo.find(db, actor, fields.chatbot)))
    throw fieldFailure(fieldError('chatbot', messages.chatbotNotFound));
  // A flow of this account, not deleted.
  if (fields.flow && !(await flowsRepo.find(db, actor, fields.flow)))
    throw fieldFailure(fieldError('flow', messages.flowNotFound));
  const values = {
    name: fields.name,
    redirect: fields.redirect,
    chatbotId: fields.chatbot,
    flowId: fields.flow,
    departmentId: fields.department,
  } satisfies Partial<ChipFields>;

  if (p._id) {
    const updated = await chipsRepo.update(db, actor, p._id, values);
    if (updated) return toChip(updated);
  }

  const created = await chipsRepo.createWithinPlan(db, actor, p._id ?? newId(), {
    ...values,
    official: p.official,
    // QR numbers: the server's adapter for them (CHANNEL_QR_PROVIDER); the chip keeps it for good.
    provider: p.official ? 'cloud-api' : services.config.qrProvider,
    // Spec 3 §4: new channels are created with status new (support sets an official one up later).
    status: 'new',
  });
  if ('max' in created)
    throw new AppError(
      p.official
        ? messages.officialChannelLimitReached(created.max)
        : messages.channelLimitReached(created.max),
    );
  // The id is another account's (or a deleted chip's).
  if (!created.row) throw new AppError(messages.notFound);
  return toChip(created.row);
}

export async function connectChip(
  services: Services,
  actor: Actor,
  id: string,
  connect: boolean,
): Promise<Chip> {
  const chip = await findChip(services, actor, id);
  const adapter = services.channels.adapter(chip);
  if (connect) {
    if (chip.official && !chip.registered) throw new AppError(messages.chipNotRegistered);
    if (chip.status !== 'open') await viaAdapter(() => adapter.connect(chip));
  } else {
    await viaAdapter(() => adapter.disconnect(chip));
  }
  return toChip(await findChip(services, actor, chip.id));
}

export async function resetChipConnection(services: Services, actor: Actor, id: string): Promise<Chip> {
  const chip = await findChip(services, actor, id);
  await viaAdapter(() => services.channels.adapter(chip).reset(chip));
  await chipsRepo.update(services.db, actor, chip.id, { reset: true, qrcode: null });
  return toChip(await findChip(services, actor, chip.id));
}

/** QR numbers: a pairing code to type on the phone, as an alternative to the QR code. */
export async function requestPairingCode(services: Services, actor: Actor, id: string, phone: string) {
  const chip = await findChip(services, actor, id);
  if (chip.provider !== 'baileys') throw new AppError(baileysTexts.notQrChip);
  const code = await viaAdapter(() => services.channels.baileys.pairingCode(chip, phone));
  return { code };
}

/**
 * An official number support names by id, in whichever account; what follows is done as the system of
 * that chip's account, so only the finding crosses accounts.
 */
async function supportChip(services: Services, staff: StaffActor, id: string) {
  const chip = await platformChipsRepo.find(services.db, staff, id);
  if (!chip) throw new AppError(messages.notFound);
  return { chip, inAccount: systemActor(chip.accountId, 'support') };
}

/** Support fills in an official number's provider data (any account: platform staff). */
export async function adminUpdateChip(
  services: Services,
  staff: StaffActor,
  p: {
    _id: string;
    waba?: string | null;
    phone_number_id?: string | null;
    display_phone_number?: string | null;
    filed?: boolean;
  },
): Promise<Chip> {
  const { chip, inAccount } = await supportChip(services, staff, p._id);
  if (!chip.official && (p.waba !== undefined || p.phone_number_id !== undefined)) {
    throw new AppError(messages.chipNotOfficial);
  }
  const set: Partial<ChipFields> = {};
  if (p.waba !== undefined) set.waba = p.waba;
  if (p.phone_number_id !== undefined) set.phoneNumberId = p.phone_number_id;
  if (p.display_phone_number !== undefined) set.displayPhoneNumber = p.display_phone_number;
  if (p.filed) set.filed = true;
  if (Object.keys(set).length === 0) return toChip(chip);
  try {
    const row = await chipsRepo.update(services.db, inAccount, chip.id, set);
    return toChip(row ?? chip);
  } catch (err) {
    if (
      p.phone_number_id &&
      (await platformChipsRepo.phoneNumberIdTaken(services.db, staff, p.phone_number_id))
    )
      throw new AppError(messages.chipPhoneNumberIdTaken);
    throw err;
  }
}

/** Support registers an official number with the provider, then marks it (spec 3 §4). */
export async function registerPhoneNumber(
  services: Services,
  staff: StaffActor,
  id: string,
  register: boolean,
): Promise<Chip> {
  const { chip, inAccount } = await supportChip(services, staff, id);
  if (!chip.official) throw new AppError(messages.chipNotOfficial);
  if (!chip.phoneNumberId) throw new AppError(messages.chipNoPhoneNumberId);
  const adapter = services.channels.adapter(chip);
  await viaAdapter(async () => adapter.register?.(chip, register));
  const row = await chipsRepo.update(services.db, inAccount, chip.id, {
    registered: register,
    status: register ? 'close' : 'configuring',
  });
  return toChip(row ?? chip);
}
