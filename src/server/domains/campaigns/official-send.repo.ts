// The official campaigns' sending rows (src/server/jobs/official-campaigns.ts): people claimed in batches,
// each send's outcome in one UPDATE, the claims a crash left behind, and the status webhooks' delivery data.
// Across accounts: the job names a campaign by id. Times are the database's clock.
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Actor } from '../../access';
import type { Db } from '../../db';
import { campaignRecipients, campaigns, chips, contacts } from '../../db/schema';

export type RecipientRow = typeof campaignRecipients.$inferSelect;

/** What the status webhooks of one send said (merged when one notification has several). */
export interface SendStatus {
  wamid: string;
  callback: { campaignId: string; seq: number } | null;
  sentAt: Date | null;
  deliveredAt: Date | null;
  readAt: Date | null;
  failed: boolean;
  failure: string | null;
  failureCode: number | null;
  pricingCategory: string | null;
}

const ms = (n: number) => sql`${Math.round(n)} * interval '1 millisecond'`;
const ofCampaign = (id: string) => eq(campaignRecipients.campaignId, id);
const isSending = eq(campaignRecipients.status, 'sending');

/** biz_opaque_callback_data of a person's send: Meta echoes it in the send's status webhooks. */
/**
 * How long an unconfirmed send waits for a status webhook naming it before it is sent again: `ms` after its
 * claim ran out, and never before `ms` after `from`, the moment this process began taking webhooks. After a
 * crash the restarted process must first have had the time to take the ones Meta retried meanwhile (a loaded
 * machine may take long to start, and the claims ran out while nobody listened).
 */
export interface Grace {
  ms: number;
  from: Date;
}
const graceEnds = (grace: Grace) =>
  sql`greatest(${campaignRecipients.claimUntil}, ${grace.from.toISOString()}::timestamptz) + ${ms(grace.ms)}`;

export const callbackData = (campaignId: string, seq: number) => `camp-${campaignId}-${seq}`;
export function readCallbackData(data: string | undefined): { campaignId: string; seq: number } | null {
  const m = data ? /^camp-([0-9A-Z]{28})-(\d{1,9})$/.exec(data) : null;
  return m?.[1] ? { campaignId: m[1], seq: Number(m[2]) } : null;
}

export const officialSendRows = {
  /** The contacts of a batch's phones (their name and variables fill parameters the audience leaves empty). */
  async contactsOf(db: Db, actor: Actor, phones: readonly string[]) {
    const rows = phones.length
      ? await db
          .select({
            phone: contacts.phone,
            name: sql<string>`coalesce(nullif(${contacts.overrideName}, ''), ${contacts.name})`,
            data: contacts.data,
          })
          .from(contacts)
          .where(
            and(
              eq(contacts.accountId, actor.accountId),
              inArray(contacts.phone, [...phones]),
              eq(contacts.filed, false),
            ),
          )
      : [];
    return new Map(rows.map((r) => [r.phone, { name: r.name, data: r.data }]));
  },
  /**
   * Claims up to `n` people due now (waiting, their retry time passed), in order, while the campaign runs:
   * status 'sending', one more attempt, a claim for `claimMs` (the send's timeout and then some).
   */
  async claim(db: Db, campaignId: string, n: number, claimMs: number) {
    return db
      .update(campaignRecipients)
      .set({
        status: 'sending',
        attempts: sql`${campaignRecipients.attempts} + 1`,
        claimUntil: sql`now() + ${ms(claimMs)}`,
      })
      .where(
        and(
          ofCampaign(campaignId),
          sql`${campaignRecipients.seq} in (select seq from ${campaignRecipients}
            where ${campaignRecipients.campaignId} = ${campaignId} and ${campaignRecipients.status} = 'waiting'
              and (${campaignRecipients.plannedAt} is null or ${campaignRecipients.plannedAt} <= now())
            order by ${campaignRecipients.seq} limit ${n} for update skip locked)`,
          sql`exists (select 1 from ${campaigns} where ${campaigns.id} = ${campaignId}
            and ${campaigns.cancelNow} = false and ${campaigns.status} = 'started')`,
        ),
      )
      .returning()
      .then((rows) => rows.sort((a, b) => a.seq - b.seq));
  },
  /** Graph took the send: the wamid, right away (a status webhook may have recorded it first: same row). */
  sent: (db: Db, r: Pick<RecipientRow, 'campaignId' | 'seq'>, wamid: string) =>
    db
      .update(campaignRecipients)
      .set({
        platformMessageId: sql`coalesce(${campaignRecipients.platformMessageId}, ${wamid})`,
        status: sql`case when ${campaignRecipients.status} = 'sending' then 'sent' else ${campaignRecipients.status} end`,
        sentAt: sql`coalesce(${campaignRecipients.sentAt}, now())`,
        claimUntil: null,
        failure: sql`case when ${campaignRecipients.status} = 'sending' then null else ${campaignRecipients.failure} end`,
      })
      .where(and(ofCampaign(r.campaignId), eq(campaignRecipients.seq, r.seq)))
      .returning()
      .then((rows) => rows[0] ?? null),
  /**
   * Not sent (Graph refused it; nothing reached WhatsApp): back to waiting, due again `afterMs` from now.
   * `countAttempt` false: a rate limit is no attempt of the person's (it only waits its turn).
   */
  retry: (db: Db, r: Pick<RecipientRow, 'campaignId' | 'seq'>, afterMs: number, countAttempt = true) =>
    db
      .update(campaignRecipients)
      .set({
        status: 'waiting',
        claimUntil: null,
        plannedAt: sql`now() + ${ms(afterMs)}`,
        ...(!countAttempt && { attempts: sql`greatest(${campaignRecipients.attempts} - 1, 0)` }),
      })
      .where(and(ofCampaign(r.campaignId), eq(campaignRecipients.seq, r.seq), isSending)),
  /** Given up: the person failed with the reason (and Graph's code). */
  fail: (db: Db, r: Pick<RecipientRow, 'campaignId' | 'seq'>, failure: string, code: number | null) =>
    db
      .update(campaignRecipients)
      .set({ status: 'error', claimUntil: null, failure, failureCode: code })
      .where(and(ofCampaign(r.campaignId), eq(campaignRecipients.seq, r.seq), isSending)),
  /**
   * The send's answer never came (a timeout, a dropped connection): Meta may have it. The person stays
   * 'sending' with its claim ending now; the grace then decides (a status webhook naming it, or a resend).
   */
  unconfirmed: (db: Db, r: Pick<RecipientRow, 'campaignId' | 'seq'>) =>
    db
      .update(campaignRecipients)
      .set({ claimUntil: sql`now()` })
      .where(and(ofCampaign(r.campaignId), eq(campaignRecipients.seq, r.seq), isSending)),
  /** People claimed but never sent (the batch stopped): back to waiting, the attempt not counted. */
  unclaim: (db: Db, campaignId: string, seqs: number[]) =>
    seqs.length
      ? db
          .update(campaignRecipients)
          .set({
            status: 'waiting',
            claimUntil: null,
            attempts: sql`greatest(${campaignRecipients.attempts} - 1, 0)`,
          })
          .where(and(ofCampaign(campaignId), inArray(campaignRecipients.seq, seqs), isSending))
      : Promise.resolve(),
  /**
   * The claims a crash or a timeout left: a person whose wamid is known (a status webhook named it) is sent;
   * one whose claim ran out more than the grace ago without any is sent again (back to waiting), or fails
   * once it had `maxAttempts`.
   */
  async recover(db: Db, campaignId: string, grace: Grace, maxAttempts: number, failure: string) {
    await db
      .update(campaignRecipients)
      .set({ status: 'sent', claimUntil: null, sentAt: sql`coalesce(${campaignRecipients.sentAt}, now())` })
      .where(
        and(ofCampaign(campaignId), isSending, sql`${campaignRecipients.platformMessageId} is not null`),
      );
    const stale = and(
      ofCampaign(campaignId),
      isSending,
      isNull(campaignRecipients.platformMessageId),
      sql`${graceEnds(grace)} <= now()`,
    );
    await db
      .update(campaignRecipients)
      .set({ status: 'error', claimUntil: null, failure })
      .where(and(stale, sql`${campaignRecipients.attempts} >= ${maxAttempts}`));
    const resent = await db
      .update(campaignRecipients)
      .set({ status: 'waiting', claimUntil: null })
      .where(stale)
      .returning({ seq: campaignRecipients.seq });
    return resent.length;
  },
  /**
   * What is left: people waiting (and the earliest moment one is due) and people 'sending' (and the earliest
   * moment an unconfirmed one may be sent again).
   */
  async left(db: Db, campaignId: string, grace: Grace) {
    const [row] = await db
      .select({
        waiting: sql<number>`(count(*) filter (where ${campaignRecipients.status} = 'waiting'))::int`,
        sending: sql<number>`(count(*) filter (where ${campaignRecipients.status} = 'sending'))::int`,
        nextDue: sql<
          string | null
        >`min(case when ${campaignRecipients.status} = 'waiting' then coalesce(${campaignRecipients.plannedAt}, now())
          when ${campaignRecipients.status} = 'sending' then ${graceEnds(grace)} end)`,
      })
      .from(campaignRecipients)
      .where(and(ofCampaign(campaignId), inArray(campaignRecipients.status, ['waiting', 'sending'])));
    return {
      waiting: row?.waiting ?? 0,
      sending: row?.sending ?? 0,
      nextDue: row?.nextDue ? new Date(row.nextDue) : null,
    };
  },
  /** The campaign's counters from its people (sent and failed), leaving its other fields. */
  recount: (db: Db, actor: Actor, campaignId: string) =>
    db
      .update(campaigns)
      .set({
        sentMessages: sql`(select count(*)::int from ${campaignRecipients} where ${campaignRecipients.campaignId} = ${campaignId} and ${campaignRecipients.status} = 'sent')`,
        failedMessages: sql`(select count(*)::int from ${campaignRecipients} where ${campaignRecipients.campaignId} = ${campaignId} and ${campaignRecipients.status} = 'error')`,
        lastSentAt: sql`coalesce((select max(${campaignRecipients.sentAt}) from ${campaignRecipients} where ${campaignRecipients.campaignId} = ${campaignId}), ${campaigns.lastSentAt})`,
      })
      .where(and(eq(campaigns.accountId, actor.accountId), eq(campaigns.id, campaignId)))
      .returning()
      .then((rows) => rows[0] ?? null),
  /** The run holds its campaign `leaseMs` more (renewed at each batch). */
  renewLease: (db: Db, actor: Actor, campaignId: string, leaseMs: number) =>
    db
      .update(campaigns)
      .set({ leaseUntil: sql`now() + ${ms(leaseMs)}` })
      .where(and(eq(campaigns.accountId, actor.accountId), eq(campaigns.id, campaignId))),
  /** A paused campaign whose chip is back goes on. */
  unpause: (db: Db, actor: Actor, campaignId: string) =>
    db
      .update(campaigns)
      .set({ paused: false })
      .where(and(eq(campaigns.accountId, actor.accountId), eq(campaigns.id, campaignId))),
  /** Rule 'all': people sent whose conversation is not stored yet (a crash between the two, a failure). */
  withoutConversation: (db: Db, campaignId: string, limit: number) =>
    db
      .select()
      .from(campaignRecipients)
      .where(
        and(
          ofCampaign(campaignId),
          eq(campaignRecipients.status, 'sent'),
          isNull(campaignRecipients.conversationId),
          sql`${campaignRecipients.platformMessageId} is not null`,
        ),
      )
      .orderBy(asc(campaignRecipients.seq))
      .limit(limit),
  setConversation: (db: Db, r: Pick<RecipientRow, 'campaignId' | 'seq'>, conversationId: string) =>
    db
      .update(campaignRecipients)
      .set({ conversationId })
      .where(and(ofCampaign(r.campaignId), eq(campaignRecipients.seq, r.seq))),
  /**
   * The status webhooks of a notification, merged per send (`sent`, `delivered`… of one wamid in one row):
   * found by their callback data (`camp-<id>-<seq>`: also after a crash lost the wamid) or by their wamid.
   * Records the wamid, marks a claimed person sent, and the delivery data: two statements for any number of
   * statuses. Answers the people changed.
   */
  async applyStatuses(db: Db, list: SendStatus[]) {
    const changed: {
      campaign_id: string;
      seq: number;
      conversation_id: string | null;
      platform_message_id: string;
    }[] = [];
    const ts = (d: Date | null) => (d ? sql`${d.toISOString()}::timestamptz` : sql`null::timestamptz`);
    const values = (items: SendStatus[]) =>
      sql.join(
        items.map(
          (v) =>
            sql`(${v.wamid}::text, ${v.callback?.campaignId ?? null}::varchar, ${v.callback?.seq ?? null}::int, ${ts(v.sentAt)}, ${ts(v.deliveredAt)}, ${ts(v.readAt)}, ${v.failed}::boolean, ${v.failure}::text, ${v.failureCode}::int, ${v.pricingCategory}::text)`,
        ),
        sql`, `,
      );
    const set = sql`platform_message_id = v.wamid,
      status = case when v.failed and r.status in ('sending', 'sent') then 'error'
        when r.status = 'sending' then 'sent' else r.status end,
      claim_until = null,
      sent_at = coalesce(r.sent_at, v.sent_at, v.delivered_at, v.read_at),
      delivered_at = coalesce(r.delivered_at, v.delivered_at, v.read_at),
      read_at = coalesce(r.read_at, v.read_at),
      failure = case when v.failed then v.failure else r.failure end,
      failure_code = case when v.failed then v.failure_code else r.failure_code end,
      pricing_category = coalesce(v.pricing, r.pricing_category)`;
    const columns = sql`v(wamid, campaign_id, seq, sent_at, delivered_at, read_at, failed, failure, failure_code, pricing)`;
    const byCallback = list.filter((v) => v.callback);
    const byWamid = list.filter((v) => !v.callback);
    for (let i = 0; i < byCallback.length; i += 500) {
      const result = (await db.execute(sql`update ${campaignRecipients} r set ${set}
        from (values ${values(byCallback.slice(i, i + 500))}) as ${columns}
        where r.campaign_id = v.campaign_id and r.seq = v.seq
          and (r.platform_message_id is null or r.platform_message_id = v.wamid)
        returning r.campaign_id, r.seq, r.conversation_id, r.platform_message_id`)) as unknown as {
        rows: typeof changed;
      };
      changed.push(...result.rows);
    }
    for (let i = 0; i < byWamid.length; i += 500) {
      const result = (await db.execute(sql`update ${campaignRecipients} r set ${set}
        from (values ${values(byWamid.slice(i, i + 500))}) as ${columns}
        where r.platform_message_id = v.wamid
        returning r.campaign_id, r.seq, r.conversation_id, r.platform_message_id`)) as unknown as {
        rows: typeof changed;
      };
      changed.push(...result.rows);
    }
    return changed;
  },
  /** Whether the campaign may go on sending now: running, not being canceled or paused, its chip connected. */
  async mayGoOn(db: Db, campaignId: string) {
    const [row] = await db
      .select({ ok: sql<boolean>`true` })
      .from(campaigns)
      .innerJoin(chips, eq(chips.id, campaigns.chipId))
      .where(
        and(
          eq(campaigns.id, campaignId),
          eq(campaigns.status, 'started'),
          eq(campaigns.cancelNow, false),
          eq(campaigns.paused, false),
          eq(campaigns.filed, false),
          eq(chips.status, 'open'),
        ),
      );
    return Boolean(row);
  },
  /** The account of a campaign, and its rule (the webhook's emits, the receipts to skip). */
  async campaignInfo(db: Db, id: string) {
    const [row] = await db
      .select({
        accountId: campaigns.accountId,
        rule: campaigns.conversationCreationRule,
        official: campaigns.official,
      })
      .from(campaigns)
      .where(eq(campaigns.id, id));
    return row ?? null;
  },
  /** The running official campaigns sending a template (a template paused or rejected stops them). */
  runningWithTemplate: (db: Db) =>
    db
      .select()
      .from(campaigns)
      .where(and(eq(campaigns.official, true), inArray(campaigns.status, ['scheduled', 'started']))),
};
