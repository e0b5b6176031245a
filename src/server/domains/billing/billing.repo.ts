// Billing's queries: the Guru offers, the ledger of Guru's events (billing_events), its running day totals
// (billing_days) and the Guru subscriptions. These are the platform's, not an account's, so who may act is
// decided per function by the actor it takes:
// - the Guru webhook (a PlatformJob, authenticated by its token) keeps the ledger and reads the offers and
//   subscriptions to find the account a sale is for; its effects on that account go through accounts.repo as
//   the account's system actor;
// - platform staff (StaffActor) manage the offers and read the financial dashboard.
import { and, asc, eq, gte, lt, lte, sql } from 'drizzle-orm';
import { newId } from '../../../shared/ids';
import type { PlatformJob, StaffActor } from '../../access';
import type { Db } from '../../db';
import { billingDays, billingEvents, billingSubscriptions, guruOffers, users } from '../../db/schema';

export type OfferRow = typeof guruOffers.$inferSelect;
type OfferFields = Omit<typeof guruOffers.$inferInsert, 'id'>;
export type EventFields = Partial<typeof billingEvents.$inferInsert>;
export type DayTotals = Partial<
  Pick<
    typeof billingDays.$inferInsert,
    'newCount' | 'newCents' | 'oldCount' | 'oldCents' | 'refundCount' | 'refundCents' | 'cancelCount'
  >
>;

/** The local day of a timestamp column in the finance time zone, as SQL. */
const dayOf = (col: unknown, timeZone: string) =>
  sql<string>`to_char(${col} at time zone ${timeZone}, 'YYYY-MM-DD')`;
/** The local midnight that opens `day`, as SQL (a timestamptz the indexes can use). */
const startOf = (day: string, timeZone: string) => sql`(${day}::timestamp at time zone ${timeZone})`;

/** db.execute answers rows (PGlite) or a result with rows (node-postgres). */
function rowsOf<T>(r: unknown): T[] {
  if (Array.isArray(r)) return r as T[];
  return ((r as { rows?: T[] }).rows ?? []) as T[];
}

export const billingRepo = {
  // --- offers ---------------------------------------------------------------------------------------------

  /** Every offer by name (few rows: the search runs in the service). Staff. */
  offers: (db: Db, _staff: StaffActor) =>
    db.select().from(guruOffers).orderBy(asc(guruOffers.name), asc(guruOffers.id)),

  async createOffer(db: Db, _staff: StaffActor, fields: OfferFields): Promise<OfferRow | null> {
    const [row] = await db
      .insert(guruOffers)
      .values({ id: newId(), ...fields })
      .returning();
    return row ?? null;
  },

  async updateOffer(db: Db, _staff: StaffActor, id: string, fields: OfferFields): Promise<OfferRow | null> {
    const [row] = await db.update(guruOffers).set(fields).where(eq(guruOffers.id, id)).returning();
    return row ?? null;
  },

  /** The offer a sale names (Guru's offer id), or the one a known subscription was sold with (our id). Webhook. */
  async offerFor(
    db: Db,
    _job: PlatformJob,
    by: { guruOfferId: string } | { id: string },
  ): Promise<OfferRow | null> {
    const where = 'id' in by ? eq(guruOffers.id, by.id) : eq(guruOffers.offerId, by.guruOfferId);
    const [row] = await db.select().from(guruOffers).where(where).limit(1);
    return row ?? null;
  },

  // --- the webhook's ledger -------------------------------------------------------------------------------

  /**
   * Claims the event's ledger row (insert, or take back a rejected row of the same key); null when the key is
   * already taken. A replay, even a concurrent one, waits on the key and then finds it taken.
   */
  async claimEvent(
    db: Db,
    _job: PlatformJob,
    e: { key: string; webhookType: string; status: string; payload: object; occurredAt: Date },
  ) {
    const [claimed] = await db
      .insert(billingEvents)
      .values({
        id: newId(),
        eventKey: e.key,
        webhookType: e.webhookType,
        status: e.status,
        kind: 'pending',
        payload: e.payload,
        occurredAt: e.occurredAt,
      })
      .onConflictDoUpdate({
        target: billingEvents.eventKey,
        set: { kind: 'pending', error: null, payload: e.payload, occurredAt: e.occurredAt },
        setWhere: sql`${billingEvents.kind} = 'rejected'`,
      })
      .returning({ id: billingEvents.id });
    return claimed ?? null;
  },

  async eventIdByKey(db: Db, _job: PlatformJob, key: string) {
    const [row] = await db
      .select({ id: billingEvents.id })
      .from(billingEvents)
      .where(eq(billingEvents.eventKey, key))
      .limit(1);
    return row?.id ?? null;
  },

  recordEvent: (db: Db, _job: PlatformJob, id: string, set: EventFields) =>
    db.update(billingEvents).set(set).where(eq(billingEvents.id, id)),

  async subscription(db: Db, _job: PlatformJob, guruSubscriptionId: string) {
    const [row] = await db
      .select()
      .from(billingSubscriptions)
      .where(eq(billingSubscriptions.guruSubscriptionId, guruSubscriptionId))
      .limit(1);
    return row ?? null;
  },

  saveSubscription: (db: Db, _job: PlatformJob, s: typeof billingSubscriptions.$inferInsert) =>
    db
      .insert(billingSubscriptions)
      .values(s)
      .onConflictDoUpdate({
        target: billingSubscriptions.guruSubscriptionId,
        set: { accountId: s.accountId, offerId: s.offerId, status: s.status, canceledAt: s.canceledAt },
      }),

  /** The account whose live owner has this e-mail (the buyer), in any account; or null. */
  async accountOfOwner(db: Db, _job: PlatformJob, email: string) {
    const [owner] = await db
      .select({ accountId: users.accountId })
      .from(users)
      .where(and(sql`lower(${users.email}) = ${email}`, eq(users.filed, false), eq(users.userRole, 'owner')))
      .limit(1);
    return owner?.accountId ?? null;
  },

  /** Adds to one local day's running totals (in the event's transaction). */
  addToDay: (db: Db, _job: PlatformJob, day: string, add: DayTotals) => {
    const d = billingDays;
    return db
      .insert(d)
      .values({ day, ...add })
      .onConflictDoUpdate({
        target: d.day,
        set: {
          newCount: sql`${d.newCount} + ${add.newCount ?? 0}`,
          newCents: sql`${d.newCents} + ${add.newCents ?? 0}`,
          oldCount: sql`${d.oldCount} + ${add.oldCount ?? 0}`,
          oldCents: sql`${d.oldCents} + ${add.oldCents ?? 0}`,
          refundCount: sql`${d.refundCount} + ${add.refundCount ?? 0}`,
          refundCents: sql`${d.refundCents} + ${add.refundCents ?? 0}`,
          cancelCount: sql`${d.cancelCount} + ${add.cancelCount ?? 0}`,
        },
      });
  },

  /**
   * Recomputes billing_days from the ledger (after an import, or to check the running totals): one statement,
   * in a transaction, so a reader sees the old totals or the new ones. The platform's own upkeep.
   */
  async rebuildDays(db: Db, _job: PlatformJob, timeZone: string) {
    const e = billingEvents;
    await db.transaction(async (tx) => {
      await tx.delete(billingDays);
      await tx.execute(sql`
        insert into ${billingDays} (day, new_count, new_cents, old_count, old_cents, refund_count, refund_cents, cancel_count)
        select ${dayOf(e.occurredAt, timeZone)},
          count(*) filter (where ${e.kind} = 'sale' and ${e.saleType} = 'new'),
          coalesce(sum(${e.amountCents}) filter (where ${e.kind} = 'sale' and ${e.saleType} = 'new'), 0),
          count(*) filter (where ${e.kind} = 'sale' and ${e.saleType} = 'old'),
          coalesce(sum(${e.amountCents}) filter (where ${e.kind} = 'sale' and ${e.saleType} = 'old'), 0),
          count(*) filter (where ${e.kind} = 'refund'),
          coalesce(sum(${e.amountCents}) filter (where ${e.kind} = 'refund'), 0),
          count(*) filter (where ${e.kind} = 'cancel')
        from ${e} where ${e.kind} in ('sale', 'refund', 'cancel') group by 1`);
    });
  },

  // --- the financial dashboard (staff) --------------------------------------------------------------------

  /**
   * What the dashboard is computed from, for local days of `timeZone`: the day totals from `firstDay` to
   * `today`, the month totals from `firstMonthDay`, the sales' cycles and the subscriptions started and
   * canceled in the window opening on `windowStartDay`, and the subscriptions by status now.
   */
  async dashboardData(
    db: Db,
    _staff: StaffActor,
    w: {
      timeZone: string;
      today: string;
      tomorrow: string;
      firstDay: string;
      firstMonthDay: string;
      windowStartDay: string;
    },
  ) {
    const end = startOf(w.tomorrow, w.timeZone);
    const windowStart = startOf(w.windowStartDay, w.timeZone);
    const e = billingEvents;
    const s = billingSubscriptions;
    const b = billingDays;
    const day = (col: unknown) => dayOf(col, w.timeZone);
    const [days, months, cycles, realTime, before, activeDays] = await Promise.all([
      db
        .select()
        .from(b)
        .where(and(gte(b.day, w.firstDay), lte(b.day, w.today))),
      db
        .select({
          month: sql<string>`substr(${b.day}, 1, 7)`,
          incomeCents: sql<string>`sum(${b.newCents} + ${b.oldCents})`,
          refundCents: sql<string>`sum(${b.refundCents})`,
        })
        .from(b)
        .where(and(gte(b.day, w.firstMonthDay), lte(b.day, w.today)))
        .groupBy(sql`1`),
      db
        .select({ cycle: sql<number>`coalesce(${e.cycle}, 1)`, count: sql<number>`count(*)::int` })
        .from(e)
        .where(and(sql`${e.kind} = 'sale'`, gte(e.occurredAt, windowStart), lt(e.occurredAt, end)))
        .groupBy(sql`1`),
      db.select({ status: s.status, count: sql<number>`count(*)::int` }).from(s).groupBy(s.status),
      db
        .select({ count: sql<number>`count(*)::int` })
        .from(s)
        .where(
          and(
            lt(s.startedAt, windowStart),
            sql`(${s.canceledAt} is null or ${s.canceledAt} >= ${windowStart})`,
          ),
        ),
      db.execute<{ day: string; started: number; canceled: number }>(sql`
        select day, sum(started)::int as started, sum(canceled)::int as canceled from (
          select ${day(s.startedAt)} as day, 1 as started, 0 as canceled from ${s}
            where ${s.startedAt} >= ${windowStart} and ${s.startedAt} < ${end}
          union all
          select ${day(s.canceledAt)} as day, 0, 1 from ${s}
            where ${s.canceledAt} >= ${windowStart} and ${s.canceledAt} < ${end}
        ) x group by day`),
    ]);
    return {
      days,
      months,
      cycles,
      realTime,
      activeBefore: before[0]?.count ?? 0,
      activeDays: rowsOf<{ day: string; started: number; canceled: number }>(activeDays),
    };
  },
};
