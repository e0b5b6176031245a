// The account's chips as its users manage them (the channels' finders are channel-chips.repo.ts). Every
// function takes who acts and keeps to its account and departments. Platform support's calls on official
// numbers are the one legitimate cross-account case: platformChipsRepo, for a StaffActor only.
import { and, asc, count, eq, type SQL } from 'drizzle-orm';
import { type Actor, departmentCondition, type StaffActor } from '../../access';
import type { ChipRow } from '../../channels/adapter';
import type { Db } from '../../db';
import { insertOnce } from '../../db/insert-once';
import { accounts, chips } from '../../db/schema';

export type ChipFields = Omit<typeof chips.$inferInsert, 'id' | 'accountId'>;

/** The actor's account and departments; `active` leaves deleted chips out. */
const scope = (actor: Actor, id?: string, active = true): SQL | undefined =>
  and(
    eq(chips.accountId, actor.accountId),
    id === undefined ? undefined : eq(chips.id, id),
    active ? eq(chips.filed, false) : undefined,
    departmentCondition(actor, chips.departmentId),
  );

export const chipsRepo = {
  /** The chips the actor sees (an attendant: those of her departments), oldest first. */
  list(db: Db, actor: Actor): Promise<ChipRow[]> {
    return db.select().from(chips).where(scope(actor)).orderBy(asc(chips.createdAt), asc(chips.id));
  },
  async find(db: Db, actor: Actor, id: string): Promise<ChipRow | null> {
    const [row] = await db.select().from(chips).where(scope(actor, id)).limit(1);
    return row ?? null;
  },
  /** A chip whether deleted or not: deleting one again answers it as it is. */
  async findWithFiled(db: Db, actor: Actor, id: string): Promise<ChipRow | null> {
    const [row] = await db
      .select()
      .from(chips)
      .where(scope(actor, id, false))
      .limit(1);
    return row ?? null;
  },
  /** Changes a chip not deleted; null when there is none of that id for the actor. */
  async update(db: Db, actor: Actor, id: string, set: Partial<ChipFields>): Promise<ChipRow | null> {
    const [row] = await db.update(chips).set(set).where(scope(actor, id)).returning();
    return row ?? null;
  },
  /** The soft delete: a deleted chip is closed and keeps no QR code. */
  async file(db: Db, actor: Actor, id: string): Promise<ChipRow | null> {
    const [row] = await db
      .update(chips)
      .set({ filed: true, status: 'close', qrcode: null })
      .where(scope(actor, id, false))
      .returning();
    return row ?? null;
  },
  /**
   * Creates a chip with `id` unless the plan's limit of chips of its kind is reached (`max` comes back). The
   * account row is locked, so two creations at once cannot both pass the limit; the same creation arriving
   * twice answers the first one's row; null when the id is another account's (or a deleted chip's).
   */
  async createWithinPlan(
    db: Db,
    actor: Actor,
    id: string,
    fields: ChipFields & { official: boolean },
  ): Promise<{ row: ChipRow | null } | { max: number }> {
    return db.transaction(async (tx) => {
      const [account] = await tx
        .select()
        .from(accounts)
        .where(eq(accounts.id, actor.accountId))
        .for('update');
      if (!account) return { row: null };
      const [used] = await tx
        .select({ n: count() })
        .from(chips)
        .where(
          and(
            eq(chips.accountId, actor.accountId),
            eq(chips.filed, false),
            eq(chips.official, fields.official),
          ),
        );
      const max = fields.official ? account.maxOfficialChannels : account.maxChannels;
      if ((used?.n ?? 0) >= max) return { max };
      const stored = await insertOnce(
        tx,
        chips,
        { ...fields, id, accountId: actor.accountId },
        scope(actor, id),
      );
      return { row: stored?.row ?? null };
    });
  },
};

/**
 * Platform support over every account's chips (spec 3 §4, §7 'admin update chip'): an official number is
 * set up by support, who names it by id without acting in its account. Only a StaffActor may ask.
 */
export const platformChipsRepo = {
  async find(db: Db, _staff: StaffActor, id: string): Promise<ChipRow | null> {
    const [row] = await db
      .select()
      .from(chips)
      .where(and(eq(chips.id, id), eq(chips.filed, false)))
      .limit(1);
    return row ?? null;
  },
  /** Whether another live chip, in any account, already has this Cloud API phone number id. */
  async phoneNumberIdTaken(db: Db, _staff: StaffActor, phoneNumberId: string): Promise<boolean> {
    const [taken] = await db
      .select({ id: chips.id })
      .from(chips)
      .where(and(eq(chips.phoneNumberId, phoneNumberId), eq(chips.filed, false)))
      .limit(1);
    return Boolean(taken);
  },
};
