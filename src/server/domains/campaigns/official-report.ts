// The official campaigns' delivery data (spec 3 delivery_data) and their report's extras, counted from their
// people (campaign_recipients: the wamid, the status webhooks' times and pricing, replies and taps).
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DeliveryData } from '../../../shared/contract/campaigns';
import type { Db } from '../../db';
import { campaignRecipients } from '../../db/schema';

export const emptyDelivery: DeliveryData = {
  sent: 0,
  delivered: 0,
  read: 0,
  failed: 0,
  replied: 0,
  clicked: 0,
};

const count = (where: ReturnType<typeof sql>) => sql<number>`(count(*) filter (where ${where}))::int`;

/**
 * The official campaigns' delivery data, counted from their people (one grouped query for the list):
 * sent = the provider took it (a wamid), delivered/read from the status webhooks, failed, replied, clicked.
 */
export async function deliveryCounts(db: Db, ids: readonly string[]) {
  const out = new Map<string, DeliveryData>();
  if (!ids.length) return out;
  const r = campaignRecipients;
  const rows = await db
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
    .where(inArray(r.campaignId, [...ids]))
    .groupBy(r.campaignId);
  for (const { id, ...data } of rows) out.set(id, data);
  return out;
}

/** The official extras of the report: per failure reason and per pricing category, and the taps. */
export async function officialReportExtras(db: Db, campaignId: string) {
  const r = campaignRecipients;
  const byReason = await db
    .select({ reason: sql<string>`${r.failure}`, count: sql<number>`count(*)::int` })
    .from(r)
    .where(and(eq(r.campaignId, campaignId), eq(r.status, 'error'), sql`${r.failure} is not null`))
    .groupBy(r.failure)
    .orderBy(sql`count(*) desc`, r.failure);
  const pricing = await db
    .select({ category: sql<string>`${r.pricingCategory}`, count: sql<number>`count(*)::int` })
    .from(r)
    .where(and(eq(r.campaignId, campaignId), sql`${r.pricingCategory} is not null`))
    .groupBy(r.pricingCategory)
    .orderBy(sql`count(*) desc`, r.pricingCategory);
  const counts = (await deliveryCounts(db, [campaignId])).get(campaignId) ?? emptyDelivery;
  return { counts, failed_by_reason: byReason, pricing };
}

/** One row per person of an official campaign, in the sending order, with what the webhooks told of it. */
export function officialReportRows(db: Db, campaignId: string) {
  const r = campaignRecipients;
  return db
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
    .where(eq(r.campaignId, campaignId))
    .orderBy(r.seq);
}
