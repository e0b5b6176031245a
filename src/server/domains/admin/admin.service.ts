// Platform administration (spec 3 §2.4, §5, §6, §7): platform staff act on any account, so nothing here is
// scoped to the caller's account; the contract's access (system role customer_admin) is the gate. Limits are
// changed under the account row's lock, the same lock chip, user and flow creation take, so a limit can never
// be set below what a concurrent creation has just made.
import { and, asc, type Column, count, desc, eq, or, sql } from 'drizzle-orm';
import { PAGE_SIZE, SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../../../shared/constants';
import type { Chip } from '../../../shared/contract';
import type { AccountUsage, AdminAccount, Customer } from '../../../shared/contract/admin';
import { newId } from '../../../shared/ids';
import { messages } from '../../../shared/messages';
import { adminMessages } from '../../../shared/messages-admin';
import { type AccountLimitsInput, pinError, prepareAccountLimits } from '../../../shared/rules/admin-account';
import { cleanChipName } from '../../../shared/rules/chip';
import { ChannelError } from '../../channels/adapter';
import { GraphError } from '../../channels/cloud-api/graph';
import { wabaClient } from '../../channels/cloud-api/waba';
import type { Db } from '../../db';
import { accounts, chips, departments, flows, subscriptions, users } from '../../db/schema';
import type { SignedInContext } from '../../http/context';
import { AppError, fieldFailure } from '../../http/errors';
import type { Services } from '../../services';
import { authRepo } from '../auth/auth.repo';
import { hashPassword } from '../auth/passwords';
import { toChip } from '../chips/chips.service';

type AccountRow = typeof accounts.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

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

// Accents and case aside, in SQL and in JS alike (no extension needed: PGlite and PostgreSQL both have it).
const ACCENTED = 'áàâãäåéèêëíìîïóòôõöúùûüçñý';
const PLAIN = 'aaaaaaeeeeiiiiooooouuuucny';
const folded = (column: Column) => sql`translate(lower(${column}), ${ACCENTED}, ${PLAIN})`;
const fold = (text: string) =>
  text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
/** The query as a LIKE pattern: its own % and _ are letters, not wildcards. */
const containsPattern = (text: string) => `%${fold(text).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The customers' table (spec 3 §2.4): live users of every account, newest first, 10 a page. */
export async function getCustomers(
  db: Db,
  p: { query: string; page: number },
): Promise<{ data: Customer[]; total: number }> {
  const query = p.query.trim();
  const pattern = containsPattern(query);
  const where = and(
    eq(users.filed, false),
    query
      ? or(
          sql`${folded(users.name)} like ${pattern} escape '\\'`,
          sql`${folded(users.email)} like ${pattern} escape '\\'`,
        )
      : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({ user: users, account: accounts, lastStatus: subscriptions.lastStatus })
      .from(users)
      .innerJoin(accounts, eq(accounts.id, users.accountId))
      .leftJoin(subscriptions, eq(subscriptions.accountId, accounts.id))
      .where(where)
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(PAGE_SIZE)
      .offset((p.page - 1) * PAGE_SIZE),
    db.select({ n: count() }).from(users).where(where),
  ]);
  return {
    total: total?.n ?? 0,
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

/** Any user's new password: every session of theirs ends (the admin's own one stays, if it is theirs). */
export async function changeCustomerPassword(
  ctx: SignedInContext,
  p: { _id: string; password: string; confirmation?: string },
) {
  const { db, realtime } = ctx.services;
  if (p.confirmation !== undefined && p.confirmation !== p.password)
    throw fieldFailure({ field: 'confirmation', message: adminMessages.passwordsDontMatch });
  const [target] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, p._id), eq(users.filed, false)));
  if (!target) throw new AppError(adminMessages.userNotFound);
  const passwordHash = await hashPassword(p.password);
  const keep = target.id === ctx.user.id ? ctx.sessionId : undefined;
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, target.id));
    await authRepo.revokeUserSessions(tx, target.id, keep);
  });
  await realtime.dropUser(target.id, keep ? { keepSessionId: keep } : {});
  return { ok: true as const };
}

async function usageOf(db: Db | Tx, accountId: string): Promise<AccountUsage> {
  const [chipRows, [userCount], [flowCount]] = await Promise.all([
    db
      .select({ official: chips.official, n: count() })
      .from(chips)
      .where(and(eq(chips.accountId, accountId), eq(chips.filed, false)))
      .groupBy(chips.official),
    db
      .select({ n: count() })
      .from(users)
      .where(and(eq(users.accountId, accountId), eq(users.filed, false))),
    db
      .select({ n: count() })
      .from(flows)
      .where(and(eq(flows.accountId, accountId), eq(flows.filed, false))),
  ]);
  return {
    channels: chipRows.find((r) => !r.official)?.n ?? 0,
    official_channels: chipRows.find((r) => r.official)?.n ?? 0,
    users: userCount?.n ?? 0,
    flows: flowCount?.n ?? 0,
  };
}

async function accountById(db: Db, accountId: string) {
  const [account] = await db.select().from(accounts).where(eq(accounts.id, accountId));
  if (!account) throw new AppError(adminMessages.accountNotFound);
  return account;
}

export async function getAccountUsage(db: Db, accountId: string) {
  await accountById(db, accountId);
  return usageOf(db, accountId);
}

/** Edits an account's limits; none may go below what the account already uses. */
export async function updateAccount(db: Db, p: AccountLimitsInput & { _id: string }): Promise<AdminAccount> {
  const prepared = prepareAccountLimits(p);
  if (!prepared.ok) throw fieldFailure(prepared.error);
  const l = prepared.limits;
  const updated = await db.transaction(async (tx) => {
    const [account] = await tx.select().from(accounts).where(eq(accounts.id, p._id)).for('update');
    if (!account) throw new AppError(adminMessages.accountNotFound);
    const used = await usageOf(tx, account.id);
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
    const [row] = await tx
      .update(accounts)
      .set({
        maxChannels: l.max_channels,
        maxOfficialChannels: l.max_official_channels,
        maxUsers: l.max_users,
        maxFlows: l.max_flows,
        campaignsEnabled: l.campaigns_enabled,
        customNegotiation: l.custom_negotiation,
      })
      .where(eq(accounts.id, account.id))
      .returning();
    return row ?? account;
  });
  const [sub] = await db
    .select({ lastStatus: subscriptions.lastStatus })
    .from(subscriptions)
    .where(eq(subscriptions.accountId, updated.id));
  return toAdminAccount(updated, sub?.lastStatus);
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

export async function officialChipsOf(db: Db, accountId: string) {
  const account = await accountById(db, accountId);
  const rows = await db
    .select()
    .from(chips)
    .where(and(eq(chips.accountId, account.id), eq(chips.official, true), eq(chips.filed, false)))
    .orderBy(asc(chips.createdAt), asc(chips.id));
  return { wabas: account.wabas, data: rows.map(toChip) };
}

/** Adds a WABA to the account with the name the provider gives it (its id must be one the token sees). */
export async function addAccountWaba(services: Services, p: { account: string; waba: string }) {
  checkWabaId(p.waba);
  const account = await accountById(services.db, p.account);
  if (account.wabas.some((w) => w.id === p.waba)) throw new AppError(adminMessages.wabaAlreadyAdded);
  const name = await viaGraph(() => wabas(services).name(p.waba));
  return services.db.transaction(async (tx) => {
    const [locked] = await tx.select().from(accounts).where(eq(accounts.id, account.id)).for('update');
    if (!locked) throw new AppError(adminMessages.accountNotFound);
    if (locked.wabas.some((w) => w.id === p.waba)) throw new AppError(adminMessages.wabaAlreadyAdded);
    const list = [...locked.wabas, { id: p.waba, name }];
    await tx.update(accounts).set({ wabas: list }).where(eq(accounts.id, locked.id));
    return list;
  });
}

async function accountWaba(db: Db, accountId: string, waba: string) {
  checkWabaId(waba);
  const account = await accountById(db, accountId);
  if (!account.wabas.some((w) => w.id === waba)) throw new AppError(adminMessages.wabaNotOfAccount);
  return account;
}

export async function wabaPhoneNumbers(services: Services, p: { account: string; waba: string }) {
  await accountWaba(services.db, p.account, p.waba);
  return { data: await viaGraph(() => wabas(services).phoneNumbers(p.waba)) };
}

/** The chip of one of the WABA's numbers: official, waiting to be registered (status configuring). */
export async function adminCreateChip(
  services: Services,
  p: { account: string; waba: string; phone_number_id: string },
): Promise<Chip> {
  const { db } = services;
  const account = await accountWaba(db, p.account, p.waba);
  const numbers = await viaGraph(() => wabas(services).phoneNumbers(p.waba));
  const phone = numbers.find((n) => n.id === p.phone_number_id);
  if (!phone) throw new AppError(adminMessages.phoneNotInWaba);
  const taken = async (tx: Db | Tx) =>
    (
      await tx
        .select({ id: chips.id })
        .from(chips)
        .where(and(eq(chips.phoneNumberId, phone.id), eq(chips.filed, false)))
    ).length > 0;
  try {
    return await db.transaction(async (tx) => {
      const [locked] = await tx.select().from(accounts).where(eq(accounts.id, account.id)).for('update');
      if (!locked) throw new AppError(adminMessages.accountNotFound);
      if (await taken(tx)) throw new AppError(adminMessages.phoneAlreadyChip);
      const used = await usageOf(tx, locked.id);
      if (used.official_channels >= locked.maxOfficialChannels)
        throw new AppError(messages.officialChannelLimitReached(locked.maxOfficialChannels));
      // The account's first department takes the number's conversations until the owner picks one.
      const [department] = await tx
        .select({ id: departments.id })
        .from(departments)
        .where(and(eq(departments.accountId, locked.id), eq(departments.filed, false)))
        .orderBy(asc(departments.createdAt), asc(departments.id))
        .limit(1);
      const [row] = await tx
        .insert(chips)
        .values({
          id: newId(),
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
        })
        .returning();
      if (!row) throw new Error('chip insert returned nothing');
      return toChip(row);
    });
  } catch (err) {
    // Two creations of one number at once: the unique index decides, the loser gets the clear message.
    if (!(err instanceof AppError) && (await taken(db))) throw new AppError(adminMessages.phoneAlreadyChip);
    throw err;
  }
}

async function liveOfficialChip(db: Db, id: string) {
  const [chip] = await db
    .select()
    .from(chips)
    .where(and(eq(chips.id, id), eq(chips.filed, false)));
  if (!chip) throw new AppError(messages.notFound);
  if (!chip.official) throw new AppError(messages.chipNotOfficial);
  return chip;
}

/** Registers the number with the provider with support's PIN (or removes it), then marks the chip. */
export async function adminRegisterPhoneNumber(
  services: Services,
  p: { _id: string; register: boolean; pin: string },
): Promise<Chip> {
  const chip = await liveOfficialChip(services.db, p._id);
  if (!chip.phoneNumberId) throw new AppError(messages.chipNoPhoneNumberId);
  const pin = p.pin.trim();
  if (p.register) {
    const problem = pinError(pin);
    if (problem) throw fieldFailure({ field: 'pin', message: problem });
  }
  const adapter = services.channels.adapter(chip);
  await viaGraph(async () => adapter.register?.(chip, p.register, p.register ? pin : undefined));
  const [row] = await services.db
    .update(chips)
    .set({ registered: p.register, status: p.register ? 'close' : 'configuring' })
    .where(eq(chips.id, chip.id))
    .returning();
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
  p: { _id: string; status: 'open' | 'configuring' | 'close' },
): Promise<Chip> {
  const chip = await liveOfficialChip(services.db, p._id);
  const [row] = await services.db
    .update(chips)
    .set({ status: p.status, qrcode: null })
    .where(eq(chips.id, chip.id))
    .returning();
  services.realtime.toAccount(chip.accountId, { type: 'status', chip_number_id: chip.id, message: p.status });
  return toChip(row ?? chip);
}

/** Deletes an official number (filed); a connected one is disconnected first. */
export async function adminDeleteChip(services: Services, id: string): Promise<Chip> {
  const chip = await liveOfficialChip(services.db, id);
  if (chip.status === 'open' || chip.status === 'connecting') {
    await services.channels
      .adapter(chip)
      .disconnect(chip)
      .catch((err: unknown) => services.log.warn({ err }, 'disconnect of a deleted official chip failed'));
  }
  const [row] = await services.db
    .update(chips)
    .set({ filed: true, status: 'close', qrcode: null })
    .where(eq(chips.id, chip.id))
    .returning();
  return toChip(row ?? chip);
}
