// Templates are read from Meta, not stored: the one query of the domain finds who must hear of a change.
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db';
import { chips } from '../../db/schema';

export const templatesRepo = {
  /**
   * The accounts with a live official chip on this WABA. Meta's webhook names the WABA, not an account: this
   * is the system's own lookup across accounts, and answers only their ids.
   */
  async accountsOnWaba(db: Db, waba: string): Promise<string[]> {
    const rows = await db
      .selectDistinct({ accountId: chips.accountId })
      .from(chips)
      .where(and(eq(chips.waba, waba), eq(chips.official, true), eq(chips.filed, false)));
    return rows.map((r) => r.accountId);
  },
};
