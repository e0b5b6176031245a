// The official campaigns' delivery data (spec 3 delivery_data) and their report's extras, counted from their
// people (campaign_recipients: the wamid, the status webhooks' times and pricing, replies and taps).
import type { DeliveryData } from '../../../shared/contract/campaigns';
import type { Actor } from '../../access';
import type { Db } from '../../db';
import { officialPeopleRows as people } from './official-people.repo';

export const emptyDelivery: DeliveryData = {
  sent: 0,
  delivered: 0,
  read: 0,
  failed: 0,
  replied: 0,
  clicked: 0,
};

/** The official campaigns' delivery data, counted from their people (one grouped query for the list). */
export async function deliveryCounts(db: Db, actor: Actor, ids: readonly string[]) {
  const out = new Map<string, DeliveryData>();
  if (!ids.length) return out;
  for (const { id, ...data } of await people.deliveryCounts(db, actor, ids)) out.set(id, data);
  return out;
}

/** The official extras of the report: per failure reason and per pricing category, and the taps. */
export async function officialReportExtras(db: Db, actor: Actor, campaignId: string) {
  const byReason = await people.failuresByReason(db, actor, campaignId);
  const pricing = await people.pricing(db, actor, campaignId);
  const counts = (await deliveryCounts(db, actor, [campaignId])).get(campaignId) ?? emptyDelivery;
  return { counts, failed_by_reason: byReason, pricing };
}
