// The Baileys channel's rows: a chip's WhatsApp Web session (creds in baileys_auth, signal keys in
// baileys_keys), the lease of its socket (baileys_leases) and the stored messages WhatsApp asks back for.
// Every function acts for a chip, (db, chipId, …), not an actor: these tables are keyed by the chip and hold
// no account, and the socket's events name only the chip its adapter opened (a chip of one account).
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { baileysAuth, baileysKeys, baileysLeases, messages } from '../../db/schema';

/** One signal key of a chip, as Baileys' keys.set hands it over (the value encoded). */
export interface BaileysKey {
  type: string;
  keyId: string;
  value: string;
}

export const baileysRepo = {
  /** The chip's saved creds row (the encoded creds), if any. */
  async creds(db: Db, chipId: string) {
    const [row] = await db.select().from(baileysAuth).where(eq(baileysAuth.chipId, chipId));
    return row ?? null;
  },

  /** Writes the whole creds in one statement (Baileys' creds.update). */
  async saveCreds(db: Db, chipId: string, text: string) {
    await db
      .insert(baileysAuth)
      .values({ chipId, creds: text })
      .onConflictDoUpdate({ target: baileysAuth.chipId, set: { creds: text, updatedAt: sql`now()` } });
  },

  /** The chip's keys of one type among `ids` (the encoded values). */
  keys(db: Db, chipId: string, type: string, ids: string[]) {
    return db
      .select({ keyId: baileysKeys.keyId, value: baileysKeys.value })
      .from(baileysKeys)
      .where(
        and(eq(baileysKeys.chipId, chipId), eq(baileysKeys.type, type), inArray(baileysKeys.keyId, ids)),
      );
  },

  /** Writes and removes keys in one transaction: a session and its pre-keys change together or not at all. */
  async setKeys(
    db: Db,
    chipId: string,
    upserts: BaileysKey[],
    removals: Pick<BaileysKey, 'type' | 'keyId'>[],
  ) {
    await db.transaction(async (tx) => {
      if (upserts.length) {
        await tx
          .insert(baileysKeys)
          .values(upserts.map((k) => ({ chipId, ...k })))
          .onConflictDoUpdate({
            target: [baileysKeys.chipId, baileysKeys.type, baileysKeys.keyId],
            set: { value: sql`excluded.value` },
          });
      }
      for (const r of removals) {
        await tx
          .delete(baileysKeys)
          .where(
            and(eq(baileysKeys.chipId, chipId), eq(baileysKeys.type, r.type), eq(baileysKeys.keyId, r.keyId)),
          );
      }
    });
  },

  /** Forgets the session (reset, logout on the phone), keys and creds in one transaction: the next connect shows a new QR. */
  async clearSession(db: Db, chipId: string) {
    await db.transaction(async (tx) => {
      await tx.delete(baileysKeys).where(eq(baileysKeys.chipId, chipId));
      await tx.delete(baileysAuth).where(eq(baileysAuth.chipId, chipId));
    });
  },

  /** Whether the chip has a saved login (a restart resumes it). */
  async hasSession(db: Db, chipId: string) {
    const [row] = await db
      .select({ id: baileysAuth.chipId })
      .from(baileysAuth)
      .where(eq(baileysAuth.chipId, chipId));
    return Boolean(row);
  },

  // One process holds a chip's WhatsApp socket at a time: two sockets on one number make WhatsApp close both
  // with 440 'conflict' again and again. The holder renews its lease while connected; a process that died
  // stops renewing, and once its lease has run out (the database's clock) another process takes the chip over.

  /** Takes (or renews) the chip's lease for `ms`: true when `holder` has it now. */
  async acquireLease(db: Db, chipId: string, holder: string, ms: number): Promise<boolean> {
    const until = sql`now() + ${`${Math.max(1, Math.round(ms))} milliseconds`}::interval`;
    const rows = await db
      .insert(baileysLeases)
      .values({ chipId, holder, expiresAt: until })
      .onConflictDoUpdate({
        target: baileysLeases.chipId,
        set: { holder, expiresAt: until },
        // Ours already, or free because its holder stopped renewing it.
        setWhere: sql`${baileysLeases.holder} = ${holder} or ${baileysLeases.expiresAt} < now()`,
      })
      .returning({ holder: baileysLeases.holder });
    return rows[0]?.holder === holder;
  },

  /** Gives the lease up (disconnect, shutdown): another process may take the chip at once. */
  async releaseLease(db: Db, chipId: string, holder: string) {
    await db
      .delete(baileysLeases)
      .where(and(eq(baileysLeases.chipId, chipId), eq(baileysLeases.holder, holder)));
  },

  /** The process holding the chip's lease now, or null when none does (never taken, released or run out). */
  async leaseHolder(db: Db, chipId: string) {
    const [row] = await db
      .select({ holder: baileysLeases.holder, live: sql<boolean>`${baileysLeases.expiresAt} >= now()` })
      .from(baileysLeases)
      .where(eq(baileysLeases.chipId, chipId));
    return row?.live ? row.holder : null;
  },

  /** A message the chip sent or received, by WhatsApp's id: for a retry's resend and a reply's quote. */
  async message(db: Db, chipId: string, platformMessageId: string) {
    const [row] = await db
      .select({ origin: messages.origin, message: messages.message })
      .from(messages)
      .where(and(eq(messages.chipId, chipId), eq(messages.platformMessageId, platformMessageId)))
      .limit(1);
    return row ?? null;
  },
};
