// A WhatsApp Business Account as the Graph API shows it (platform support's calls, spec 3 §7): its name
// (GET /{waba-id}?fields=id,name) and its phone numbers (GET /{waba-id}/phone_numbers, every page).
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import { createGraphClient } from './graph';

export interface WabaPhoneNumber {
  id: string;
  display_phone_number: string;
  verified_name: string;
  quality_rating: string | null;
}

const FIELDS = 'id,display_phone_number,verified_name,quality_rating';

export function wabaClient(config: Config, log: FastifyBaseLogger) {
  const graph = createGraphClient(config, log);
  return {
    /** The WABA's name; throws the Graph error (a ChannelError) for an id the token cannot see. */
    async name(waba: string): Promise<string> {
      const answer = await graph.get<{ id?: string; name?: string }>(
        `${encodeURIComponent(waba)}?fields=id,name`,
      );
      return answer.name?.trim() || waba;
    },
    async phoneNumbers(waba: string): Promise<WabaPhoneNumber[]> {
      const all: WabaPhoneNumber[] = [];
      let after: string | undefined;
      for (let page = 0; page < 50; page++) {
        const query = `fields=${FIELDS}&limit=100${after ? `&after=${encodeURIComponent(after)}` : ''}`;
        const answer = await graph.get<{
          data?: Partial<WabaPhoneNumber>[];
          paging?: { cursors?: { after?: string }; next?: string };
        }>(`${encodeURIComponent(waba)}/phone_numbers?${query}`);
        for (const p of answer.data ?? []) {
          if (!p.id) continue;
          all.push({
            id: String(p.id),
            display_phone_number: p.display_phone_number ?? '',
            verified_name: p.verified_name ?? '',
            quality_rating: p.quality_rating ?? null,
          });
        }
        after = answer.paging?.next ? answer.paging.cursors?.after : undefined;
        if (!after) break;
      }
      return all;
    },
  };
}
