// The inbound pipeline's reads and writes of contacts and conversations (pipeline.ts), acting as the chip's
// account (systemActor(accountId, 'pipeline')). The hot ones are prepared statements: built once per database.
import { and, eq, isNull, sql } from 'drizzle-orm';
import { OFFICIAL_CHANNEL_TYPE } from '../../../shared/constants';
import { newId } from '../../../shared/ids';
import type { Actor } from '../../access';
import type { ChipRow } from '../../channels/adapter';
import type { Db } from '../../db';
import { prepared } from '../../db/prepared';
import { contacts, conversations, flows, messages, tags } from '../../db/schema';
import type { KeywordFlow } from '../flows/engine';
import type { AutoTagCandidate } from '../tags/auto-tag';

export type ContactRow = typeof contacts.$inferSelect;

export const inboundRepo = {
  /**
   * What a customer's message needs first, in one round trip: the contact by phone, its open conversation on
   * the chip, and whether this message is stored already (a replay). No row when the contact is new.
   */
  async lookUp(db: Db, actor: Actor, chip: ChipRow, phone: string, platformMessageId: string) {
    const [row] = await prepared(db, 'inbound_lookup', (d) =>
      d
        .select({
          seen: sql<
            string | null
          >`(select ${messages.id} from ${messages} where ${messages.chipId} = ${sql.placeholder('chip')} and ${messages.platformMessageId} = ${sql.placeholder('platform')} limit 1)`,
          contact: contacts,
          conversation: conversations,
          // The account's rules the message meets next, read here rather than by two more round trips.
          autoTags: sql<
            AutoTagCandidate[]
          >`(select coalesce(json_agg(json_build_object('id', ${tags.id}, 'autoTag', ${tags.autoTag}, 'keywords', ${tags.keywords})), '[]') from ${tags} where ${tags.accountId} = ${sql.placeholder('account')} and ${tags.autoTag} and not ${tags.filed})`,
          keywordFlows: sql<
            KeywordFlow[]
          >`(select coalesce(json_agg(json_build_object('id', ${flows.id}, 'keywords', ${flows.keywords}, 'triggerHuman', ${flows.triggerHuman}, 'disabledChips', ${flows.disabledChips}) order by ${flows.createdAt}, ${flows.id}), '[]') from ${flows} where ${flows.accountId} = ${sql.placeholder('account')} and ${flows.trigger} and not ${flows.filed})`,
        })
        .from(contacts)
        .leftJoin(
          conversations,
          and(
            eq(conversations.chipId, sql.placeholder('chip')),
            eq(conversations.contactId, contacts.id),
            isNull(conversations.finishedAt),
          ),
        )
        .where(
          and(
            eq(contacts.accountId, sql.placeholder('account')),
            eq(contacts.phone, sql.placeholder('phone')),
            eq(contacts.filed, false),
          ),
        )
        .limit(1)
        .prepare('inbound_lookup'),
    ).execute({ chip: chip.id, platform: platformMessageId, account: actor.accountId, phone });
    return row;
  },

  /** The contact by phone, created or given the channel's id and (when empty) the profile name. */
  async upsertContact(
    db: Db,
    actor: Actor,
    contact: { phone: string; name: string; channelContactId: string },
  ): Promise<ContactRow> {
    const [row] = await db
      .insert(contacts)
      .values({ id: newId(), accountId: actor.accountId, ...contact })
      .onConflictDoUpdate({
        target: [contacts.accountId, contacts.phone],
        targetWhere: sql`${contacts.filed} = false`,
        // A profile name fills an empty name; a name the team typed (override_name) is never touched.
        set: {
          name: sql`case when ${contacts.name} = '' then excluded.name else ${contacts.name} end`,
          channelContactId: sql`excluded.channel_contact_id`,
        },
      })
      .returning();
    if (!row) throw new Error('contact upsert returned nothing');
    return row;
  },

  /** A finished conversation that keeps an ignored contact's message. */
  async createFinishedConversation(db: Db, actor: Actor, chip: ChipRow, contactId: string) {
    const [created] = await db
      .insert(conversations)
      .values({
        id: newId(),
        accountId: actor.accountId,
        chipId: chip.id,
        contactId,
        departmentId: chip.departmentId,
        isNew: false,
        finishedAt: new Date(),
        channelType: chip.official ? OFFICIAL_CHANNEL_TYPE : null,
      })
      .returning();
    if (!created) throw new Error('conversation insert returned nothing');
    return created;
  },

  /** The account's auto-tags, when the lookup did not read them. */
  autoTagCandidates: (db: Db, actor: Actor): Promise<AutoTagCandidate[]> =>
    prepared(db, 'auto_tags', (d) =>
      d
        .select({ id: tags.id, autoTag: tags.autoTag, keywords: tags.keywords })
        .from(tags)
        .where(
          and(eq(tags.accountId, sql.placeholder('account')), eq(tags.filed, false), eq(tags.autoTag, true)),
        )
        .prepare('auto_tags'),
    ).execute({ account: actor.accountId }),

  /** Adds tags to the contact in SQL, so two messages tagging at once both keep their tags. */
  addContactTags: (tx: Db, _actor: Actor, contactId: string, tagIds: string[]) =>
    tx
      .update(contacts)
      .set({
        tags: sql`(select coalesce(jsonb_agg(distinct t), '[]'::jsonb) from jsonb_array_elements(${contacts.tags} || ${JSON.stringify(tagIds)}::jsonb) t)`,
      })
      .where(eq(contacts.id, contactId)),
};
