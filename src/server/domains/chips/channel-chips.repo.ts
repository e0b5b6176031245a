// The chip rows as the channels reach them. A provider's event names a chip (by id, by the simulator's
// link token, by the Cloud API's phone number id), not an account: these finders resolve the chip, and
// everything after acts as systemActor(chip.accountId, …) on that chip's account only.
import { and, asc, desc, eq, inArray, isNull, lt, sql } from 'drizzle-orm';
import type { ChipStatus } from '../../../shared/constants';
import type { Actor } from '../../access';
import type { ChipRow } from '../../channels/adapter';
import type { Db } from '../../db';
import { prepared } from '../../db/prepared';
import { channelInbox, chips, contacts, conversations, messages } from '../../db/schema';

const ofActor = (actor: Actor, chipId: string) =>
  and(eq(chips.id, chipId), eq(chips.accountId, actor.accountId));

export const channelChipsRepo = {
  /** The chip a provider event names, unless deleted. */
  async byId(db: Db, chipId: string): Promise<ChipRow | null> {
    const [row] = await prepared(db, 'chip_by_id', (d) =>
      d
        .select()
        .from(chips)
        .where(eq(chips.id, sql.placeholder('id')))
        .limit(1)
        .prepare('chip_by_id'),
    ).execute({ id: chipId });
    return row && !row.filed ? row : null;
  },
  /** The simulator chip whose page link holds this token. */
  async bySimulatorToken(db: Db, token: string): Promise<ChipRow | null> {
    const [chip] = await prepared(db, 'chip_by_simulator_token', (d) =>
      d
        .select()
        .from(chips)
        .where(
          and(
            sql`${chips.credentials}->>'token' = ${sql.placeholder('token')}`,
            eq(chips.provider, 'simulator'),
            eq(chips.filed, false),
          ),
        )
        .limit(1)
        .prepare('chip_by_simulator_token'),
    ).execute({ token });
    return chip ?? null;
  },
  /** The Cloud API chip of a webhook's phone_number_id. */
  async byPhoneNumberId(db: Db, phoneNumberId: string): Promise<ChipRow | null> {
    const [chip] = await db
      .select()
      .from(chips)
      .where(
        and(eq(chips.phoneNumberId, phoneNumberId), eq(chips.provider, 'cloud-api'), eq(chips.filed, false)),
      )
      .limit(1);
    return chip ?? null;
  },
  /** Every chip not deleted: the channels reconnect them at start. */
  async allActive(db: Db): Promise<ChipRow[]> {
    return db.select().from(chips).where(eq(chips.filed, false));
  },
  async setQrcode(db: Db, actor: Actor, chipId: string, code: string) {
    await db.update(chips).set({ qrcode: code, status: 'connecting' }).where(ofActor(actor, chipId));
  },
  async setStatus(db: Db, actor: Actor, chipId: string, status: ChipStatus, reason?: string) {
    await db
      .update(chips)
      .set({
        status,
        qrcode: null,
        statusReason: reason ?? null,
        ...(status === 'open' && { active: true, reset: false }),
      })
      .where(ofActor(actor, chipId));
  },
  async setPhoneInfo(
    db: Db,
    actor: Actor,
    chipId: string,
    info: { displayPhoneNumber: string | null; phoneNumberQuality: string | null },
  ) {
    await db.update(chips).set(info).where(ofActor(actor, chipId));
  },
  async setCredentials(db: Db, actor: Actor, chipId: string, credentials: Record<string, unknown>) {
    await db.update(chips).set({ credentials }).where(ofActor(actor, chipId));
  },
  /** What reached one customer's phone on this chip (the simulator page's history), oldest first. */
  async phoneHistory(db: Db, chip: ChipRow, phone: string, kinds: readonly string[]) {
    const rows = await db
      .select({ m: messages })
      .from(messages)
      .innerJoin(conversations, eq(conversations.id, messages.conversationId))
      .innerJoin(contacts, eq(contacts.id, conversations.contactId))
      .where(
        and(
          eq(messages.accountId, chip.accountId),
          eq(messages.chipId, chip.id),
          eq(contacts.phone, phone),
          eq(contacts.accountId, chip.accountId),
          // The customer's own messages and the business's sent ones.
          sql`${messages.platformMessageId} is not null`,
          inArray(messages.type, kinds as (typeof messages.$inferSelect)['type'][]),
        ),
      )
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(200);
    return rows.reverse().map((r) => r.m);
  },
};

/** The providers' notifications as received, kept until handled (replayed after a restart) and a week after. */
export const channelInboxRepo = {
  async store(db: Db, id: string, provider: 'cloud-api' | 'baileys', body: unknown, receivedAt?: Date) {
    await db.insert(channelInbox).values({ id, provider, body, ...(receivedAt && { receivedAt }) });
  },
  async unprocessed(db: Db, provider: 'cloud-api' | 'baileys') {
    return db
      .select()
      .from(channelInbox)
      .where(and(eq(channelInbox.provider, provider), isNull(channelInbox.processedAt)))
      .orderBy(asc(channelInbox.receivedAt));
  },
  async markProcessed(db: Db, id: string) {
    await db.update(channelInbox).set({ processedAt: new Date() }).where(eq(channelInbox.id, id));
  },
  async pruneProcessedBefore(db: Db, before: Date) {
    await db.delete(channelInbox).where(lt(channelInbox.processedAt, before));
  },
};
