// Audiences and their people (spec 3 §3 Audience), always within the actor's account: another account's
// audience id is not there. The people are rows of audience_people, which the campaign engine reads with SQL.
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Actor } from '../../access';
import type { Db } from '../../db';
import { audiencePeople, audiences } from '../../db/schema';

export type AudienceRow = typeof audiences.$inferSelect;
type Fields = Pick<typeof audiences.$inferInsert, 'name' | 'createContacts'>;

/** One person of a sheet: the phone (digits with the country code) and the other columns. */
export interface AudiencePerson {
  phone: string;
  data: Record<string, string>;
}

/** People per insert: one JSON parameter each, so the batch size is bound by memory, not by parameters. */
const PEOPLE_BATCH = 10_000;

const live = (accountId: string, id: string) =>
  and(eq(audiences.accountId, accountId), eq(audiences.id, id), eq(audiences.filed, false));

export const audiencesRepo = {
  /** The account's live audiences, newest first. */
  list(db: Db, actor: Actor) {
    return db
      .select()
      .from(audiences)
      .where(and(eq(audiences.accountId, actor.accountId), eq(audiences.filed, false)))
      .orderBy(desc(audiences.createdAt), desc(audiences.id));
  },

  /** A live (not deleted) audience of the account, or null: what a campaign may send to. */
  async findLive(db: Db, actor: Actor, id: string): Promise<AudienceRow | null> {
    const [row] = await db.select().from(audiences).where(live(actor.accountId, id)).limit(1);
    return row ?? null;
  },

  /**
   * The audience `id` names, made now or already there (a repeated create, or an edit with a new sheet),
   * with these fields; null when the id is another account's or a deleted audience's. In a transaction, a
   * second create of the same id waits for the first and then takes its row.
   */
  async claim(db: Db, actor: Actor, id: string, fields: Fields): Promise<AudienceRow | null> {
    const [made] = await db
      .insert(audiences)
      .values({ ...fields, id, accountId: actor.accountId })
      .onConflictDoNothing()
      .returning();
    if (made) return made;
    return audiencesRepo.update(db, actor, id, fields);
  },

  async update(db: Db, actor: Actor, id: string, set: Partial<AudienceRow>) {
    const [row] = await db.update(audiences).set(set).where(live(actor.accountId, id)).returning();
    return row ?? null;
  },

  /** The audience's people in the sheet's order. */
  people(db: Db, id: string): Promise<AudiencePerson[]> {
    return db
      .select({ phone: audiencePeople.phone, data: audiencePeople.data })
      .from(audiencePeople)
      .where(eq(audiencePeople.audienceId, id))
      .orderBy(asc(audiencePeople.position));
  },

  /** Soft delete: the row stays for the campaigns that sent to it. */
  async file(db: Db, actor: Actor, id: string) {
    return audiencesRepo.update(db, actor, id, { filed: true });
  },

  /**
   * The audience's people become `people`, in the sheet's order, and its count and columns follow: call it
   * in the transaction that claimed the audience, so it has all of them or none.
   */
  async replacePeople(db: Db, actor: Actor, id: string, people: AudiencePerson[], props: string[]) {
    await db.delete(audiencePeople).where(eq(audiencePeople.audienceId, id));
    for (let start = 0; start < people.length; start += PEOPLE_BATCH) {
      const rows = people
        .slice(start, start + PEOPLE_BATCH)
        .map((p, i) => ({ phone: p.phone, data: p.data, position: start + i }));
      // One JSON parameter for the whole batch: binding thousands of parameters costs more than the insert.
      await db.execute(sql`
        insert into ${audiencePeople} (audience_id, phone, data, position)
        select ${id}, x.phone, x.data, x.position
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(phone text, data jsonb, position int)`);
    }
    return audiencesRepo.update(db, actor, id, { peopleCount: people.length, props });
  },
};
