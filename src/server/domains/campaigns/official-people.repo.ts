// The people of the actor's official campaigns outside the sending job: their conversation and stored message
// (official-conversation.ts), a reply or a tap (the pipeline), and the delivery data of the list and the report
// (official-report.ts). A person's row has no account of its own: it is the actor's through its campaign.
import { and, desc, eq, gt, gte, inArray, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { Actor } from '../../access';
import type { Db } from '../../db';
import { readRangesInPieces } from '../../db/pieces';
import { campaignRecipients, campaigns, messages } from '../../db/schema';

const r = campaignRecipients;

/** The people of these campaigns of the actor's account. */
const ofCampaigns = (actor: Actor, ids: readonly string[]) =>
  and(
    inArray(r.campaignId, [...ids]),
    sql`exists (select 1 from ${campaigns} where ${campaigns.id} = ${r.campaignId} and ${campaigns.accountId} = ${actor.accountId})`,
  );
const person = (actor: Actor, campaignId: string, phone: string) =>
  and(ofCampaigns(actor, [campaignId]), eq(r.phone, phone));

const count = (where: SQL) => sql<number>`(count(*) filter (where ${where}))::int`;

export const officialPeopleRows = {
  /** A send's stored message, by its chip and wamid: the condition appendMessage's `existing` takes. */
  sendMessage: (actor: Actor, chipId: string, wamid: string) =>
    and(
      eq(messages.accountId, actor.accountId),
      eq(messages.chipId, chipId),
      eq(messages.platformMessageId, wamid),
    ),
  /** The conversation a send's message is stored in, or null when it is not stored yet. */
  async conversationOfSend(db: Db, actor: Actor, chipId: string, wamid: string) {
    const [row] = await db
      .select({ conversationId: messages.conversationId })
      .from(messages)
      .where(officialPeopleRows.sendMessage(actor, chipId, wamid))
      .limit(1);
    return row?.conversationId ?? null;
  },
  /** What the status webhooks already told of the person. */
  async delivery(db: Db, actor: Actor, campaignId: string, phone: string) {
    const [row] = await db
      .select({ deliveredAt: r.deliveredAt, readAt: r.readAt })
      .from(r)
      .where(person(actor, campaignId, phone))
      .limit(1);
    return row;
  },
  /** The person's conversation, contact and stored message (its send's), in the caller's transaction. */
  async linkConversation(
    tx: Db,
    actor: Actor,
    p: { campaignId: string; phone: string; chipId: string; wamid: string },
    link: { conversationId: string; contactId: string },
  ) {
    const [row] = await tx
      .select({ id: messages.id })
      .from(messages)
      .where(officialPeopleRows.sendMessage(actor, p.chipId, p.wamid))
      .limit(1);
    await tx
      .update(r)
      .set({ conversationId: link.conversationId, messageId: row?.id ?? null, contactId: link.contactId })
      .where(person(actor, p.campaignId, p.phone));
  },
  /**
   * The person of an official campaign of this chip a message from `phone` answers: the latest sent since
   * `since`, of `campaignId` when a tapped button names it.
   */
  async replyTarget(
    db: Db,
    actor: Actor,
    chipId: string,
    phone: string,
    since: Date,
    campaignId: string | null,
  ) {
    const [found] = await db
      .select({ person: r, campaign: campaigns })
      .from(r)
      .innerJoin(campaigns, eq(campaigns.id, r.campaignId))
      .where(
        and(
          eq(r.phone, phone),
          eq(r.status, 'sent'),
          gte(r.sentAt, since),
          eq(campaigns.accountId, actor.accountId),
          eq(campaigns.chipId, chipId),
          eq(campaigns.official, true),
          // Few campaigns of the chip are left (one not finished before the window began): each is then one
          // primary-key lookup of (campaign, phone).
          or(isNull(campaigns.finishedAt), gte(campaigns.finishedAt, since)),
          campaignId ? eq(campaigns.id, campaignId) : undefined,
        ),
      )
      .orderBy(desc(r.sentAt))
      .limit(1);
    return found ?? null;
  },
  /** A reply (and a tap's button) on the person, kept from the first; in the caller's transaction. */
  recordReply: (
    tx: Db,
    actor: Actor,
    p: { campaignId: string; phone: string },
    repliedAt: Date,
    tapText: string | null,
  ) =>
    tx
      .update(r)
      .set({
        repliedAt: sql`coalesce(${r.repliedAt}, ${repliedAt})`,
        ...(tapText !== null && { clickedButton: sql`coalesce(${r.clickedButton}, ${tapText})` }),
      })
      .where(person(actor, p.campaignId, p.phone)),
  /**
   * The delivery data of these campaigns, one grouped query: sent = the provider took it (a wamid),
   * delivered/read from the status webhooks, failed, replied, clicked.
   */
  deliveryCounts: (db: Db, actor: Actor, ids: readonly string[]) =>
    db
      .select({
        id: r.campaignId,
        sent: count(sql`${r.status} = 'sent' or ${r.platformMessageId} is not null`),
        delivered: count(sql`${r.deliveredAt} is not null or ${r.readAt} is not null`),
        read: count(sql`${r.readAt} is not null`),
        failed: count(sql`${r.status} = 'error'`),
        replied: count(sql`${r.repliedAt} is not null`),
        clicked: count(sql`${r.clickedButton} is not null`),
      })
      .from(r)
      .where(ofCampaigns(actor, ids))
      .groupBy(r.campaignId),
  /** The campaign's failed people per reason, most first. */
  failuresByReason: (db: Db, actor: Actor, campaignId: string) =>
    db
      .select({ reason: sql<string>`${r.failure}`, count: sql<number>`count(*)::int` })
      .from(r)
      .where(and(ofCampaigns(actor, [campaignId]), eq(r.status, 'error'), sql`${r.failure} is not null`))
      .groupBy(r.failure)
      .orderBy(sql`count(*) desc`, r.failure),
  /** The campaign's people per Meta pricing category, most first. */
  pricing: (db: Db, actor: Actor, campaignId: string) =>
    db
      .select({ category: sql<string>`${r.pricingCategory}`, count: sql<number>`count(*)::int` })
      .from(r)
      .where(and(ofCampaigns(actor, [campaignId]), sql`${r.pricingCategory} is not null`))
      .groupBy(r.pricingCategory)
      .orderBy(sql`count(*) desc`, r.pricingCategory),
  /**
   * One row per person, in the sending order, with what the webhooks told of it. Range by range of seq (issue
   * 37: 200,000 people read at once hold the embedded database for seconds).
   */
  async reportRows(db: Db, actor: Actor, campaignId: string) {
    const [{ last } = { last: 0 }] = await db
      .select({ last: sql<number>`coalesce(max(${r.seq}), 0)::int` })
      .from(r)
      .where(ofCampaigns(actor, [campaignId]));
    return readRangesInPieces(db, last, (tx, from, to) =>
      tx
        .select({
          phone: r.phone,
          data: r.data,
          status: r.status,
          sentAt: r.sentAt,
          deliveredAt: r.deliveredAt,
          readAt: r.readAt,
          repliedAt: r.repliedAt,
          clickedButton: r.clickedButton,
          pricingCategory: r.pricingCategory,
          failure: r.failure,
        })
        .from(r)
        .where(and(ofCampaigns(actor, [campaignId]), gt(r.seq, from), lte(r.seq, to)))
        .orderBy(r.seq),
    );
  },
};
