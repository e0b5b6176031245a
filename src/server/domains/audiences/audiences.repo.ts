// Audiences and their people (spec 3 §3 Audience), always within the actor's account: another account's
// audience id is not there. The people are rows of audience_people, which the campaign engine reads with SQL.
// An import writes its people under a row of its own (an import row: filed, import_for = the audience), piece by
// piece (issue 37), and the audience takes them at once when the last piece is in: its people_from then points
// at that row. Until then the audience has its people as they were, or is not there yet.
import { and, asc, desc, eq, gt, isNotNull, lt, sql } from 'drizzle-orm';
import { newId } from '../../../shared/ids';
import type { Actor } from '../../access';
import type { Db } from '../../db';
import { deleteInPieces, inPieces } from '../../db/pieces';
import { audiencePeople, audiences } from '../../db/schema';

export type AudienceRow = typeof audiences.$inferSelect;
type Fields = Pick<typeof audiences.$inferInsert, 'name' | 'createContacts'>;

/** One person of a sheet: the phone (digits with the country code) and the other columns. */
export interface AudiencePerson {
  phone: string;
  data: Record<string, string>;
}

/** An import left unfinished this long ago (its process ended mid-way) is swept away. */
const ABANDONED_AFTER = sql`interval '1 hour'`;

const live = (accountId: string, id: string) =>
  and(eq(audiences.accountId, accountId), eq(audiences.id, id), eq(audiences.filed, false));

/** The row whose audience_people rows are the audience's people. */
export const peopleRowOf = (a: Pick<AudienceRow, 'id' | 'peopleFrom'>) => a.peopleFrom ?? a.id;

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

  /** Whether `id` is free or a live audience of the account: what an import may fill. */
  async mayImportInto(db: Db, actor: Actor, id: string) {
    const [row] = await db
      .select({ accountId: audiences.accountId, filed: audiences.filed })
      .from(audiences)
      .where(eq(audiences.id, id))
      .limit(1);
    return !row || (row.accountId === actor.accountId && !row.filed);
  },

  /** A new import row for audience `id`: its people go under it. Answers its id. */
  async startImport(db: Db, actor: Actor, id: string, fields: Fields) {
    const importId = newId();
    await db
      .insert(audiences)
      .values({ ...fields, id: importId, accountId: actor.accountId, filed: true, importFor: id });
    return importId;
  },

  /** A piece of an import's people, `start` being the first one's place in the sheet. */
  async addPeople(db: Db, importId: string, people: AudiencePerson[], start: number) {
    const rows = people.map((p, i) => ({ phone: p.phone, data: p.data, position: start + i }));
    // One JSON parameter for the whole piece: binding thousands of parameters costs more than the insert.
    await db.execute(sql`
      insert into ${audiencePeople} (audience_id, phone, data, position)
      select ${importId}, x.phone, x.data, x.position
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(phone text, data jsonb, position int)`);
  },

  /**
   * The audience `id` takes the import's people (made now, or already there: a repeated create, or an edit with
   * a new sheet) with these fields, count and columns. Answers it and the row whose people it had (to be
   * dropped), or null when the id is another account's or a deleted audience's. Short: one row written.
   */
  async finishImport(
    db: Db,
    actor: Actor,
    id: string,
    importId: string,
    set: Fields & Pick<AudienceRow, 'peopleCount' | 'props'>,
  ): Promise<{ audience: AudienceRow; replaced: string | null } | null> {
    return db.transaction(async (tx) => {
      const [made] = await tx
        .insert(audiences)
        .values({ ...set, id, accountId: actor.accountId, peopleFrom: importId })
        .onConflictDoNothing()
        .returning();
      if (made) return { audience: made, replaced: null };
      // Locked until the commit: a campaign starting now reads the people before or after, never midway.
      const [before] = await tx.select().from(audiences).where(live(actor.accountId, id)).for('update');
      if (!before) return null;
      const [audience] = await tx
        .update(audiences)
        .set({ ...set, peopleFrom: importId })
        .where(eq(audiences.id, id))
        .returning();
      return audience ? { audience, replaced: peopleRowOf(before) } : null;
    });
  },

  /**
   * Drops the people of a row no audience takes them from any more (an import that failed or was replaced, or an
   * audience's own rows from before), in pieces, then the row itself when it is an import row.
   */
  async dropPeople(db: Db, rowId: string) {
    await deleteInPieces(
      db,
      audiencePeople,
      [audiencePeople.audienceId, audiencePeople.phone],
      eq(audiencePeople.audienceId, rowId),
    );
    await db
      .delete(audiences)
      .where(
        and(
          eq(audiences.id, rowId),
          isNotNull(audiences.importFor),
          sql`not exists (select 1 from ${audiences} a where a.people_from = ${rowId})`,
        ),
      );
  },

  /**
   * Housekeeping: the rows an import left behind when its process ended mid-way (an import row no audience
   * takes its people from, started over an hour ago), and an audience's own rows from before its first import
   * in pieces that a process ended before they were dropped.
   */
  async sweepAbandonedImports(db: Db) {
    const abandoned = await db
      .select({ id: audiences.id })
      .from(audiences)
      .where(
        and(
          isNotNull(audiences.importFor),
          lt(audiences.createdAt, sql`now() - ${ABANDONED_AFTER}`),
          sql`not exists (select 1 from ${audiences} a where a.people_from = ${audiences.id})`,
        ),
      );
    const leftOver = await db
      .select({ id: audiences.id })
      .from(audiences)
      .where(
        and(
          isNotNull(audiences.peopleFrom),
          sql`exists (select 1 from ${audiencePeople} p where p.audience_id = ${audiences.id})`,
        ),
      );
    for (const { id } of [...abandoned, ...leftOver]) await audiencesRepo.dropPeople(db, id);
  },

  /**
   * The audience's people in phone order, `each(tx, piece)` called with each piece in a transaction of its own
   * (for writes that follow them, like their contacts). By phone, the primary key's order: a piece reads its
   * rows from the index, and two of these writing contacts lock them in the same order.
   */
  async forEachPeoplePiece(
    db: Db,
    audience: AudienceRow,
    each: (tx: Db, people: AudiencePerson[]) => Promise<void>,
  ) {
    const rowId = peopleRowOf(audience);
    let after = '';
    await inPieces(db, async (tx, rows) => {
      const people = await tx
        .select({ phone: audiencePeople.phone, data: audiencePeople.data })
        .from(audiencePeople)
        .where(and(eq(audiencePeople.audienceId, rowId), gt(audiencePeople.phone, after)))
        .orderBy(asc(audiencePeople.phone))
        .limit(rows);
      if (people.length) await each(tx, people);
      after = people.at(-1)?.phone ?? after;
      return people.length === rows;
    });
  },

  async update(db: Db, actor: Actor, id: string, set: Partial<AudienceRow>) {
    const [row] = await db.update(audiences).set(set).where(live(actor.accountId, id)).returning();
    return row ?? null;
  },

  /** Soft delete: the row stays for the campaigns that sent to it. */
  async file(db: Db, actor: Actor, id: string) {
    return audiencesRepo.update(db, actor, id, { filed: true });
  },
};
