// Platform administration (spec 3 §2.4, §5, §6, §7): platform staff act on any account, so nothing here is
// scoped to the caller's account; every function takes the StaffActor (the contract's access, system role
// customer_admin, is the gate; staffActor() refuses anyone outside the platform staff). Limits are changed under
// the account row's lock, the same lock chip, user and flow creation take, so a limit can never be set below
// what a concurrent creation has just made. The queries are admin.repo.ts's.
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../../../shared/constants';
import type { Chip } from '../../../shared/contract';
import type { AdminAccount, Customer } from '../../../shared/contract/admin';
import { messages } from '../../../shared/messages';
import { adminMessages } from '../../../shared/messages-admin';
import { type AccountLimitsInput, pinError, prepareAccountLimits } from '../../../shared/rules/admin-account';
import { cleanChipName } from '../../../shared/rules/chip';
import { type StaffActor, systemActor } from '../../access';
import { ChannelError } from '../../channels/adapter';
import { GraphError } from '../../channels/cloud-api/graph';
import { wabaClient } from '../../channels/cloud-api/waba';
import type { Db } from '../../db';
import { AppError, fieldFailure } from '../../http/errors';
import type { Services } from '../../services';
import { authRepo } from '../auth/auth.repo';
import { hashPassword } from '../auth/passwords';
import { chipsRepo, platformChipsRepo } from '../chips/chips.repo';
import { toChip } from '../chips/chips.service';
import { type AccountRow, adminRepo } from './admin.repo';

/** Meta's answer to a register with another PIN than the number's two-step verification one. */
const PIN_MISMATCH = 133005;

const statusOf = (value: string | null | undefined): SubscriptionStatus =>
  (SUBSCRIPTION_STATUSES as readonly string[]).includes(value ?? '') ? (value as SubscriptionStatus) : 'none';

function toAdminAccount(a: AccountRow, lastStatus?: string | null): AdminAccount {
  return {
    _id: a.id,
    name: a.name,
    plan_id: a.planId,
    subscription_status: statusOf(lastStatus ?? a.subscriptionStatus),
    custom_negotiation: a.customNegotiation,
    campaigns_enabled: a.campaignsEnabled,
    max_channels: a.maxChannels,
    max_official_channels: a.maxOfficialChannels,
    max_users: a.maxUsers,
    max_flows: a.maxFlows,
    wabas: a.wabas,
  };
}

/** The customers' table (spec 3 §2.4): live users of every account, newest first, 10 a page. */
export async function getCustomers(
  services: Services,
  staff: StaffActor,
  p: { query: string; page: number },
): Promise<{ data: Customer[]; total: number }> {
  const { rows, total } = await adminRepo.customers(services.db, staff, {
    query: p.query.trim(),
    page: p.page,
  });
  return {
    total,
    data: rows.map(({ user, account, lastStatus }) => ({
      _id: user.id,
      name: user.name,
      override_name: null,
      email: user.email,
      profile_picture: user.profilePicture,
      user_role: user.userRole,
      created: user.createdAt.toISOString(),
      account: toAdminAccount(account, lastStatus),
    })),
  };
}

/**
 * Any user's new password: every session of theirs ends (the staff member's own one, `currentSessionId`,
 * stays if the user is themself).
 */
export async function changeCustomerPassword(
  services: Services,
  staff: StaffActor,
  p: { _id: string; password: string; confirmation?: string; currentSessionId: string },
) {
  const { db, realtime } = services;
  if (p.confirmation !== undefined && p.confirmation !== p.password)
    throw fieldFailure({ field: 'confirmation', message: adminMessages.passwordsDontMatch });
  const target = await adminRepo.liveUser(db, staff, p._id);
  if (!target) throw new AppError(adminMessages.userNotFound);
  const passwordHash = await hashPassword(p.password);
  const keep = target.id === staff.userId ? p.currentSessionId : undefined;
  await db.transaction(async (tx) => {
    await adminRepo.setPassword(tx, staff, target.id, passwordHash);
    await authRepo.revokeUserSessions(tx, target.id, keep);
  });
  await realtime.dropUser(target.id, keep ? { keepSessionId: keep } : {});
  return { ok: true as const };
}

async function accountById(db: Db, staff: StaffActor, accountId: string) {
  const account = await adminRepo.account(db, staff, accountId);
  if (!account) throw new AppError(adminMessages.accountNotFound);
  return account;
}

export async function getAccountUsage(services: Services, staff: StaffActor, accountId: string) {
  await accountById(services.db, staff, accountId);
  return adminRepo.usage(services.db, staff, accountId);
}

/** Edits an account's limits; none may go below what the account already uses. */
export async function updateAccount(
  services: Services,
  staff: StaffActor,
  p: AccountLimitsInput & { _id: string },
): Promise<AdminAccount> {
  const { db } = services;
  const prepared = prepareAccountLimits(p);
  if (!prepared.ok) throw fieldFailure(prepared.error);
  const l = prepared.limits;
  const updated = await db.transaction(async (tx) => {
    const account = await adminRepo.lockAccount(tx, staff, p._id);
    if (!account) throw new AppError(adminMessages.accountNotFound);
    const used = await adminRepo.usage(tx, staff, account.id);
    const below = (
      [
        ['max_channels', l.max_channels, used.channels, adminMessages.usageChannels],
        [
          'max_official_channels',
          l.max_official_channels,
          used.official_channels,
          adminMessages.usageOfficialChannels,
        ],
        ['max_users', l.max_users, used.users, adminMessages.usageUsers],
        ['max_flows', l.max_flows, used.flows, adminMessages.usageFlows],
      ] as const
    ).find(([, limit, n]) => limit < n);
    if (below) {
      const [field, , n, what] = below;
      throw fieldFailure({ field, message: adminMessages.limitBelowUsage(what, n) });
    }
    const row = await adminRepo.updateAccount(tx, staff, account.id, {
      maxChannels: l.max_channels,
      maxOfficialChannels: l.max_official_channels,
      maxUsers: l.max_users,
      maxFlows: l.max_flows,
      campaignsEnabled: l.campaigns_enabled,
      customNegotiation: l.custom_negotiation,
    });
    return row ?? account;
  });
  return toAdminAccount(updated, await adminRepo.subscriptionStatus(db, staff, updated.id));
}

// --- official numbers ----------------------------------------------------------------------------------

/** Provider failures become their pt-BR reason; a wrong PIN its own. */
async function viaGraph<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof GraphError && err.code === PIN_MISMATCH) throw new AppError(adminMessages.pinMismatch);
    if (err instanceof ChannelError) throw new AppError(err.message);
    throw err;
  }
}

const wabas = (services: Services) => wabaClient(services.config, services.log);

function checkWabaId(waba: string) {
  if (!/^\d{1,32}$/.test(waba)) throw fieldFailure({ field: 'waba', message: adminMessages.wabaInvalid });
}

export async function officialChipsOf(services: Services, staff: StaffActor, accountId: string) {
  const account = await accountById(services.db, staff, accountId);
  const rows = await chipsRepo.list(services.db, systemActor(account.id, 'support'));
  return { wabas: account.wabas, data: rows.filter((c) => c.official).map(toChip) };
}

/** Adds a WABA to the account with the name the provider gives it (its id must be one the token sees). */
export async function addAccountWaba(
  services: Services,
  staff: StaffActor,
  p: { account: string; waba: string },
) {
  checkWabaId(p.waba);
  const account = await accountById(services.db, staff, p.account);
  if (account.wabas.some((w) => w.id === p.waba)) throw new AppError(adminMessages.wabaAlreadyAdded);
  const name = await viaGraph(() => wabas(services).name(p.waba));
  return services.db.transaction(async (tx) => {
    const locked = await adminRepo.lockAccount(tx, staff, account.id);
    if (!locked) throw new AppError(adminMessages.accountNotFound);
    if (locked.wabas.some((w) => w.id === p.waba)) throw new AppError(adminMessages.wabaAlreadyAdded);
    const list = [...locked.wabas, { id: p.waba, name }];
    await adminRepo.updateAccount(tx, staff, locked.id, { wabas: list });
    return list;
  });
}

async function accountWaba(db: Db, staff: StaffActor, accountId: string, waba: string) {
  checkWabaId(waba);
  const account = await accountById(db, staff, accountId);
  if (!account.wabas.some((w) => w.id === waba)) throw new AppError(adminMessages.wabaNotOfAccount);
  return account;
}

export async function wabaPhoneNumbers(
  services: Services,
  staff: StaffActor,
  p: { account: string; waba: string },
) {
  await accountWaba(services.db, staff, p.account, p.waba);
  return { data: await viaGraph(() => wabas(services).phoneNumbers(p.waba)) };
}

/** The chip of one of the WABA's numbers: official, waiting to be registered (status configuring). */
export async function adminCreateChip(
  services: Services,
  staff: StaffActor,
  p: { account: string; waba: string; phone_number_id: string },
): Promise<Chip> {
  const { db } = services;
  const account = await accountWaba(db, staff, p.account, p.waba);
  const numbers = await viaGraph(() => wabas(services).phoneNumbers(p.waba));
  const phone = numbers.find((n) => n.id === p.phone_number_id);
  if (!phone) throw new AppError(adminMessages.phoneNotInWaba);
  try {
    return await db.transaction(async (tx) => {
      const locked = await adminRepo.lockAccount(tx, staff, account.id);
      if (!locked) throw new AppError(adminMessages.accountNotFound);
      if (await platformChipsRepo.phoneNumberIdTaken(tx, staff, phone.id))
        throw new AppError(adminMessages.phoneAlreadyChip);
      const used = await adminRepo.usage(tx, staff, locked.id);
      if (used.official_channels >= locked.maxOfficialChannels)
        throw new AppError(messages.officialChannelLimitReached(locked.maxOfficialChannels));
      // The account's first department takes the number's conversations until the owner picks one.
      const department = await adminRepo.firstDepartment(tx, staff, locked.id);
      const row = await adminRepo.insertChip(tx, staff, {
        accountId: locked.id,
        name: cleanChipName(phone.verified_name) || phone.display_phone_number.replace(/\D/g, ''),
        official: true,
        provider: 'cloud-api',
        redirect: 'human',
        status: 'new',
        waba: p.waba,
        phoneNumberId: phone.id,
        displayPhoneNumber: phone.display_phone_number,
        phoneNumberQuality: phone.quality_rating,
        departmentId: department?.id ?? null,
      });
      return toChip(row);
    });
  } catch (err) {
    // Two creations of one number at once: the unique index decides, the loser gets the clear message.
    if (!(err instanceof AppError) && (await platformChipsRepo.phoneNumberIdTaken(db, staff, phone.id)))
      throw new AppError(adminMessages.phoneAlreadyChip);
    throw err;
  }
}

/**
 * An official number support names by id, in whichever account; it is changed as the system of that chip's
 * account, so only the finding crosses accounts.
 */
async function liveOfficialChip(db: Db, staff: StaffActor, id: string) {
  const chip = await platformChipsRepo.find(db, staff, id);
  if (!chip) throw new AppError(messages.notFound);
  if (!chip.official) throw new AppError(messages.chipNotOfficial);
  return { chip, inAccount: systemActor(chip.accountId, 'support') };
}

/** Registers the number with the provider with support's PIN (or removes it), then marks the chip. */
export async function adminRegisterPhoneNumber(
  services: Services,
  staff: StaffActor,
  p: { _id: string; register: boolean; pin: string },
): Promise<Chip> {
  const { chip, inAccount } = await liveOfficialChip(services.db, staff, p._id);
  if (!chip.phoneNumberId) throw new AppError(messages.chipNoPhoneNumberId);
  const pin = p.pin.trim();
  if (p.register) {
    const problem = pinError(pin);
    if (problem) throw fieldFailure({ field: 'pin', message: problem });
  }
  const adapter = services.channels.adapter(chip);
  await viaGraph(async () => adapter.register?.(chip, p.register, p.register ? pin : undefined));
  const row = await chipsRepo.update(services.db, inAccount, chip.id, {
    registered: p.register,
    status: p.register ? 'close' : 'configuring',
  });
  if (!p.register && chip.status === 'open') {
    services.realtime.toAccount(chip.accountId, {
      type: 'status',
      chip_number_id: chip.id,
      message: 'configuring',
    });
  }
  return toChip(row ?? chip);
}

/** Spec 3 §4 manual admin status: the row changes and the account's /chips sees it live. */
export async function adminSetChipStatus(
  services: Services,
  staff: StaffActor,
  p: { _id: string; status: 'open' | 'configuring' | 'close' },
): Promise<Chip> {
  const { chip, inAccount } = await liveOfficialChip(services.db, staff, p._id);
  const row = await chipsRepo.update(services.db, inAccount, chip.id, { status: p.status, qrcode: null });
  services.realtime.toAccount(chip.accountId, { type: 'status', chip_number_id: chip.id, message: p.status });
  return toChip(row ?? chip);
}

/** Deletes an official number (filed); a connected one is disconnected first. */
export async function adminDeleteChip(services: Services, staff: StaffActor, id: string): Promise<Chip> {
  const { chip, inAccount } = await liveOfficialChip(services.db, staff, id);
  if (chip.status === 'open' || chip.status === 'connecting') {
    await services.channels
      .adapter(chip)
      .disconnect(chip)
      .catch((err: unknown) => services.log.warn({ err }, 'disconnect of a deleted official chip failed'));
  }
  const row = await chipsRepo.file(services.db, inAccount, chip.id);
  return toChip(row ?? chip);
}
