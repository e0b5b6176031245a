// One process holds a chip's WhatsApp socket at a time: two sockets on one number make WhatsApp close both
// with 440 'conflict' again and again. The holder renews its lease while connected; a process that died
// stops renewing, and once its lease has run out (the database's clock) another process takes the chip over.
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { baileysLeases } from '../../db/schema';

/** Takes (or renews) the chip's lease for `ms`: true when `holder` has it now. */
export async function acquireLease(db: Db, chipId: string, holder: string, ms: number): Promise<boolean> {
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
}

/** Gives the lease up (disconnect, shutdown): another process may take the chip at once. */
export async function releaseLease(db: Db, chipId: string, holder: string) {
  await db
    .delete(baileysLeases)
    .where(and(eq(baileysLeases.chipId, chipId), eq(baileysLeases.holder, holder)));
}

export async function leaseHolder(db: Db, chipId: string) {
  const [row] = await db
    .select({ holder: baileysLeases.holder, live: sql<boolean>`${baileysLeases.expiresAt} >= now()` })
    .from(baileysLeases)
    .where(eq(baileysLeases.chipId, chipId));
  return row?.live ? row.holder : null;
}
