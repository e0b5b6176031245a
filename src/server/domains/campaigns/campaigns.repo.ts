// Campaigns' rows, always within the actor's account (a row of another account is not there), and the reach
// of an audience: the audience's people, or the contacts with the tags minus those with a tag to skip.
import { and, desc, eq, getTableColumns, gt, inArray, lte, or, type SQL, sql } from 'drizzle-orm';
import { MESSAGE_STATUS } from '../../../shared/constants';
import { type Actor, systemActor } from '../../access';
import type { Db } from '../../db';
import { insertOnce } from '../../db/insert-once';
import { readRangesInPieces } from '../../db/pieces';
import {
  audiencePeople,
  audiences,
  campaignRecipients,
  campaigns,
  chips,
  contacts,
  messages,
  tags,
} from '../../db/schema';
import { hasAnyTag } from '../contacts/contacts.repo';

export type CampaignRow = typeof campaigns.$inferSelect;
export type CampaignFieldsRow = Omit<typeof campaigns.$inferInsert, 'id' | 'accountId' | 'userId'>;

/** The contacts a tags audience reaches: of the account, not deleted, with a tag and none of the skipped. */
export const taggedContacts = (accountId: string, wanted: readonly string[], skip: readonly string[]) =>
  and(
    eq(contacts.accountId, accountId),
    eq(contacts.filed, false),
    hasAnyTag(wanted),
    skip.length ? sql`not ${hasAnyTag(skip)}` : undefined,
  );

/** The people of the actor's campaign (their rows have no account of their own: their campaign's). */
const peopleOf = (actor: Actor, campaignId: string) =>
  and(
    eq(campaignRecipients.campaignId, campaignId),
    sql`exists (select 1 from ${campaigns} where ${campaigns.id} = ${campaignId} and ${campaigns.accountId} = ${actor.accountId})`,
  );

const count = (where: SQL) => sql<number>`(count(*) filter (where ${where}))::int`;

/**
 * A customer's message in the person's conversation after ours (a flow campaign's: after the flow started):
 * the person replied.
 */
const replied = sql`exists (select 1 from ${messages} m2 where m2.conversation_id = ${campaignRecipients.conversationId} and m2.origin = 'customer' and m2.created_at > coalesce(${messages.createdAt}, ${campaignRecipients.sentAt}))`;

export const campaignsRepo = {
  /** The account's campaigns not deleted, official or not, newest first. */
  list: (db: Db, actor: Actor, official: boolean) =>
    db
      .select()
      .from(campaigns)
      .where(
        and(
          eq(campaigns.accountId, actor.accountId),
          eq(campaigns.filed, false),
          eq(campaigns.official, official),
        ),
      )
      .orderBy(desc(campaigns.createdAt), desc(campaigns.id))
      .limit(1000),
  async find(db: Db, actor: Actor, id: string, opts: { filed?: boolean } = {}) {
    const [row] = await db
      .select()
      .from(campaigns)
      .where(
        and(
          eq(campaigns.accountId, actor.accountId),
          eq(campaigns.id, id),
          opts.filed ? undefined : eq(campaigns.filed, false),
        ),
      )
      .limit(1);
    return row ?? null;
  },
  /** Inserts once per `id` (named by the dialog): a repeat answers the row there; null for another account's id. */
  insertOnce: (db: Db, actor: Actor & { kind: 'user' }, id: string, fields: CampaignFieldsRow) =>
    insertOnce(
      db,
      campaigns,
      { ...fields, id, accountId: actor.accountId, userId: actor.userId },
      and(eq(campaigns.id, id), eq(campaigns.accountId, actor.accountId)),
    ),
  /** Changes a campaign the job has not started (status 'scheduled'); null otherwise. */
  async updateScheduled(db: Db, actor: Actor, id: string, set: Partial<CampaignFieldsRow>) {
    const [row] = await db
      .update(campaigns)
      .set(set)
      .where(
        and(
          eq(campaigns.accountId, actor.accountId),
          eq(campaigns.id, id),
          eq(campaigns.status, 'scheduled'),
          eq(campaigns.filed, false),
        ),
      )
      .returning();
    return row ?? null;
  },
  /**
   * Cancels: a scheduled campaign at once; a started one is marked cancel_now and its job stops before the
   * next send. `filed` deletes it too. Null when it had already ended (and is not being deleted).
   */
  async cancel(db: Db, actor: Actor, id: string, opts: { filed?: boolean } = {}) {
    const [row] = await db
      .update(campaigns)
      .set({
        cancelNow: true,
        status: sql`case when ${campaigns.status} = 'scheduled' then 'canceled' else ${campaigns.status} end`,
        finishedAt: sql`case when ${campaigns.status} = 'scheduled' then now() else ${campaigns.finishedAt} end`,
        ...(opts.filed && { filed: true }),
      })
      .where(
        and(
          eq(campaigns.accountId, actor.accountId),
          eq(campaigns.id, id),
          eq(campaigns.filed, false),
          opts.filed ? undefined : inArray(campaigns.status, ['scheduled', 'started']),
        ),
      )
      .returning();
    return row ?? null;
  },
  /**
   * The account's audience not deleted, or null. `share` locks it until the caller's commit: an import ending
   * meanwhile (which drops the people the audience had) waits for it.
   */
  async audience(db: Db, actor: Actor, id: string, opts: { share?: boolean } = {}) {
    const query = db
      .select()
      .from(audiences)
      .where(and(eq(audiences.id, id), eq(audiences.accountId, actor.accountId), eq(audiences.filed, false)))
      .limit(1);
    const [row] = await (opts.share ? query.for('share') : query);
    return row ?? null;
  },
  /** Whether every id is a tag of the account. */
  async ownTags(db: Db, actor: Actor, ids: readonly string[]) {
    if (!ids.length) return true;
    const rows = await db
      .select({ id: tags.id })
      .from(tags)
      .where(
        and(eq(tags.accountId, actor.accountId), eq(tags.filed, false), inArray(tags.id, [...new Set(ids)])),
      );
    return rows.length === new Set(ids).size;
  },
  /** The campaign's people by where they are: waiting (or being sent), sent, failed, skipped. */
  async peopleCounts(db: Db, actor: Actor, campaignId: string) {
    const [row] = await db
      .select({
        total: sql<number>`count(*)::int`,
        waiting: count(sql`${campaignRecipients.status} in ('waiting', 'sending')`),
        sent: count(sql`${campaignRecipients.status} = 'sent'`),
        failed: count(sql`${campaignRecipients.status} = 'error'`),
        skipped: count(sql`${campaignRecipients.status} = 'skipped'`),
      })
      .from(campaignRecipients)
      .where(peopleOf(actor, campaignId));
    return row ?? { total: 0, waiting: 0, sent: 0, failed: 0, skipped: 0 };
  },
  /** Of the people sent, those whose message was delivered, read, and who replied. */
  async sentDelivery(db: Db, actor: Actor, campaignId: string) {
    const [row] = await db
      .select({
        delivered: count(sql`${messages.status} >= ${MESSAGE_STATUS.delivered}`),
        read: count(sql`${messages.status} >= ${MESSAGE_STATUS.read}`),
        replied: count(replied),
      })
      .from(campaignRecipients)
      .leftJoin(messages, eq(messages.id, campaignRecipients.messageId))
      .where(and(peopleOf(actor, campaignId), eq(campaignRecipients.status, 'sent')));
    return row ?? { delivered: 0, read: 0, replied: 0 };
  },
  /**
   * One row per person, with what happened to the message sent to them. Range by range of seq (issue 37:
   * 200,000 people read at once hold the embedded database for seconds).
   */
  async reportRows(db: Db, actor: Actor, campaignId: string) {
    const [{ last } = { last: 0 }] = await db
      .select({ last: sql<number>`coalesce(max(${campaignRecipients.seq}), 0)::int` })
      .from(campaignRecipients)
      .where(peopleOf(actor, campaignId));
    return readRangesInPieces(db, last, (tx, from, to) =>
      tx
        .select({
          phone: campaignRecipients.phone,
          data: campaignRecipients.data,
          version: campaignRecipients.version,
          status: campaignRecipients.status,
          sentAt: campaignRecipients.sentAt,
          failure: campaignRecipients.failure,
          messageStatus: messages.status,
          messageFailure: messages.failure,
          replied: sql<boolean>`${replied}`,
        })
        .from(campaignRecipients)
        .leftJoin(messages, eq(messages.id, campaignRecipients.messageId))
        .where(
          and(peopleOf(actor, campaignId), gt(campaignRecipients.seq, from), lte(campaignRecipients.seq, to)),
        )
        .orderBy(campaignRecipients.seq),
    );
  },
  /** The contacts a tags audience reaches now, ignored ones left out (the estimated reach). */
  async taggedReach(db: Db, actor: Actor, wanted: readonly string[], skip: readonly string[]) {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(contacts)
      .where(and(taggedContacts(actor.accountId, wanted, skip), eq(contacts.ignore, false)));
    return row?.n ?? 0;
  },
};

/**
 * The sending job's rows (src/server/jobs/campaigns.ts), across accounts: the runner names a campaign by id;
 * each is then sent within its own account. Times are the database's clock, the one every process shares.
 */
/** The first key of the chips' pace locks (pg_advisory_xact_lock(int, int)): the second is the chip's hash. */
const CHIP_PACE_LOCK = 3301;

export const campaignJobRows = {
  /**
   * Takes the campaign's lease when free (or run out): one process works on a campaign at a time. Answers
   * the row and whether its next send is due; null when the campaign has ended or another process holds it.
   */
  async lease(db: Db, id: string, leaseMs: number) {
    const [row] = await db
      .update(campaigns)
      .set({ leaseUntil: sql`now() + ${leaseMs} * interval '1 millisecond'` })
      .where(
        and(
          eq(campaigns.id, id),
          inArray(campaigns.status, ['scheduled', 'started']),
          sql`(${campaigns.leaseUntil} is null or ${campaigns.leaseUntil} <= now())`,
        ),
      )
      .returning({
        ...getTableColumns(campaigns),
        due: sql<boolean>`coalesce(${campaigns.nextSendAt} <= now(), true)`,
      });
    return row ?? null;
  },
  /** Why a lease was not taken: the campaign's status and its lease (held by another run). */
  async state(db: Db, id: string) {
    const [row] = await db
      .select({ status: campaigns.status, leaseUntil: campaigns.leaseUntil })
      .from(campaigns)
      .where(eq(campaigns.id, id));
    return row ?? null;
  },
  release: (db: Db, id: string, set: Partial<typeof campaigns.$inferInsert> = {}) =>
    db
      .update(campaigns)
      .set({ ...set, leaseUntil: null })
      .where(eq(campaigns.id, id))
      .returning()
      .then((rows) => rows[0] ?? null),
  /** Ends a campaign that is still running (a cancel, an error, the last person sent). */
  end: (db: Db, id: string, status: 'finished' | 'canceled' | 'error', failure: string | null = null) =>
    db
      .update(campaigns)
      .set({ status, failure, finishedAt: sql`now()`, leaseUntil: null, paused: false })
      .where(and(eq(campaigns.id, id), inArray(campaigns.status, ['scheduled', 'started'])))
      .returning()
      .then((rows) => rows[0] ?? null),
  /**
   * Materializes the people (one row each, in the sending order, a text version drawn at random for each) and
   * starts the campaign, in the caller's transaction. Ignored contacts are there as skipped. Answers how
   * many people it has, or null when its audience was deleted before the start.
   */
  async start(tx: Db, c: CampaignRow, skippedFailure: string): Promise<number | null> {
    const versions = Math.max(1, c.messageType === 'text' ? c.versions.length : 1);
    const ignored = sql`coalesce(${contacts.ignore}, false)`;
    const common = sql`floor(random() * ${versions}::int)::int, case when ${ignored} then 'skipped' else 'waiting' end, ${contacts.id}, case when ${ignored} then ${skippedFailure}::text end`;
    const columns = sql`(campaign_id, seq, phone, data, version, status, contact_id, failure)`;
    if (c.audienceType === 'audience') {
      const audience = c.audienceId
        ? await campaignsRepo.audience(tx, systemActor(c.accountId, 'campaigns'), c.audienceId, {
            share: true,
          })
        : null;
      if (!audience) return null;
      await tx.execute(sql`
        insert into ${campaignRecipients} ${columns}
        select ${c.id}::varchar, row_number() over (order by ${audiencePeople.position}, ${audiencePeople.phone}),
          ${audiencePeople.phone}, ${audiencePeople.data}, ${common}
        from ${audiencePeople}
        left join ${contacts} on ${contacts.accountId} = ${c.accountId} and ${contacts.phone} = ${audiencePeople.phone}
          and ${contacts.filed} = false
        where ${audiencePeople.audienceId} = ${audience.peopleFrom ?? audience.id}
        on conflict do nothing`);
    } else {
      await tx.execute(sql`
        insert into ${campaignRecipients} ${columns}
        select ${c.id}::varchar, row_number() over (order by ${contacts.createdAt}, ${contacts.id}),
          ${contacts.phone}, '{}'::jsonb, ${common}
        from ${contacts}
        where ${taggedContacts(c.accountId, c.audienceTags, c.audienceTagsSkip)}
        on conflict do nothing`);
    }
    const [{ n } = { n: 0 }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(campaignRecipients)
      .where(eq(campaignRecipients.campaignId, c.id));
    await tx
      .update(campaigns)
      .set({ status: 'started', startedAt: sql`now()`, peopleCount: n })
      .where(eq(campaigns.id, c.id));
    return n;
  },
  /**
   * The chip's pace, read under the chip's advisory lock (every campaign of the chip claims under it, so two
   * never both see the chip free; not the chip row's lock, which its status and QR writes take): the chip's
   * last campaign send, the slowest interval of its running campaigns, and whether another running campaign
   * of the chip has a send in flight.
   */
  async chipPace(tx: Db, chipId: string, campaignId: string) {
    await tx.execute(sql`select pg_advisory_xact_lock(${CHIP_PACE_LOCK}, hashtext(${chipId}))`);
    const [row] = await tx
      .select({
        lastSentAt: sql<Date | null>`max(${campaigns.lastSentAt})`.mapWith(campaigns.lastSentAt),
        intervalSeconds: sql<number>`coalesce(max(${campaigns.intervalSeconds}) filter (where ${campaigns.status} = 'started' and not ${campaigns.paused}), 0)::int`,
        inFlight: sql<boolean>`exists (select 1 from ${campaignRecipients} r join ${campaigns} o on o.id = r.campaign_id where o.chip_id = ${chipId} and o.id <> ${campaignId} and r.status = 'sending' and o.lease_until > now())`,
      })
      .from(campaigns)
      .where(and(eq(campaigns.chipId, chipId), eq(campaigns.official, false)));
    return row ?? { lastSentAt: null, intervalSeconds: 0, inFlight: false };
  },
  /**
   * Claims the next person: the lowest seq not yet settled (one left 'sending' by a crash comes first, as sends
   * go in order), only while the campaign is not being canceled. Records when it was planned.
   */
  async claimNext(db: Db, c: Pick<CampaignRow, 'id' | 'nextSendAt'>) {
    const next = sql`(select min(${campaignRecipients.seq}) from ${campaignRecipients} where ${campaignRecipients.campaignId} = ${c.id} and ${campaignRecipients.status} in ('waiting', 'sending'))`;
    const [row] = await db
      .update(campaignRecipients)
      .set({
        status: 'sending',
        plannedAt: sql`coalesce(${campaignRecipients.plannedAt}, ${c.nextSendAt ?? new Date()})`,
      })
      .where(
        and(
          eq(campaignRecipients.campaignId, c.id),
          sql`${campaignRecipients.seq} = ${next}`,
          sql`exists (select 1 from ${campaigns} where ${campaigns.id} = ${c.id} and ${campaigns.cancelNow} = false and ${campaigns.status} = 'started')`,
        ),
      )
      .returning();
    return row ?? null;
  },
  /**
   * Records a claimed person's outcome with the campaign's counters and next planned send, in the caller's
   * transaction; answers whether the person was still claimed (a second settle changes nothing) and how many
   * people are still waiting.
   */
  async settle(
    tx: Db,
    r: Pick<typeof campaignRecipients.$inferSelect, 'campaignId' | 'seq'>,
    outcome: {
      status: 'sent' | 'error' | 'skipped';
      failure: string | null;
      sentAt: Date;
      contactId: string | null;
      conversationId: string | null;
      messageId: string | null;
    },
  ) {
    const [settled] = await tx
      .update(campaignRecipients)
      .set({
        status: outcome.status,
        failure: outcome.failure,
        sentAt: outcome.status === 'skipped' ? null : outcome.sentAt,
        contactId: outcome.contactId,
        conversationId: outcome.conversationId,
        messageId: outcome.messageId,
      })
      .where(
        and(
          eq(campaignRecipients.campaignId, r.campaignId),
          eq(campaignRecipients.seq, r.seq),
          eq(campaignRecipients.status, 'sending'),
        ),
      )
      .returning({ seq: campaignRecipients.seq });
    const [{ n } = { n: 0 }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(campaignRecipients)
      .where(
        and(
          eq(campaignRecipients.campaignId, r.campaignId),
          inArray(campaignRecipients.status, ['waiting', 'sending']),
        ),
      );
    return { settled: Boolean(settled), waiting: n };
  },
  /** Counts one person's outcome on the campaign and plans the next send (or ends it), leaving the lease. */
  async advance(
    tx: Db,
    id: string,
    o: { sent: number; failed: number; sentAt: Date | null; nextSendAt: Date | null; finished: boolean },
  ) {
    const [row] = await tx
      .update(campaigns)
      .set({
        sentMessages: sql`${campaigns.sentMessages} + ${o.sent}`,
        failedMessages: sql`${campaigns.failedMessages} + ${o.failed}`,
        ...(o.sentAt && { lastSentAt: o.sentAt }),
        nextSendAt: o.nextSendAt,
        leaseUntil: null,
        ...(o.finished && { status: 'finished' as const, finishedAt: sql`now()` }),
      })
      .where(eq(campaigns.id, id))
      .returning();
    return row ?? null;
  },
  /** A chip's running campaigns paused (it disconnected) or going on (it connected again). */
  setPaused: (db: Db, chipId: string, paused: boolean) =>
    db
      .update(campaigns)
      .set({ paused })
      .where(
        and(eq(campaigns.chipId, chipId), eq(campaigns.status, 'started'), eq(campaigns.paused, !paused)),
      )
      .returning(),
  /**
   * Campaigns a crash or a missed event may have left without a run: due (or being canceled), running on a
   * chip that is connected while they are paused, not deleted-and-done.
   */
  needingRun: (db: Db) =>
    db
      .select({ id: campaigns.id, nextSendAt: campaigns.nextSendAt, official: campaigns.official })
      .from(campaigns)
      .innerJoin(chips, eq(chips.id, campaigns.chipId))
      .where(
        and(
          inArray(campaigns.status, ['scheduled', 'started']),
          or(
            sql`coalesce(${campaigns.nextSendAt} <= now(), true)`,
            eq(campaigns.cancelNow, true),
            and(eq(campaigns.paused, true), eq(chips.status, 'open')),
          ),
        ),
      )
      .limit(1000),
};
