// Automatic follow-up settings (spec 3 §2.12, §7 'follow-ups: get all, update'): one per chip of the account.
// A save also drops the cached due times of the chip's waiting conversations (jobs/follow-ups.ts works them
// out again with the new setting) in the same transaction, and wakes the engine.
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { FollowUpSetting } from '../../../shared/contract/follow-ups';
import { newId } from '../../../shared/ids';
import { followUpMessages } from '../../../shared/messages-follow-ups';
import {
  defaultFollowUpSetting,
  type FollowUpMessage,
  type FollowUpSettingInput,
  prepareFollowUpSetting,
} from '../../../shared/rules/follow-up';
import type { Db } from '../../db';
import { chips, conversations, followUpSettings } from '../../db/schema';
import type { SignedInContext } from '../../http/context';
import { AppError, fieldFailure } from '../../http/errors';
import { wakeFollowUps } from './wake';

type Ctx = SignedInContext;
type SettingRow = typeof followUpSettings.$inferSelect;

const messageOr = (row: SettingRow, i: number, fallback: FollowUpMessage): FollowUpMessage =>
  row.messages[i] ?? fallback;

function toSetting(chip: { id: string; name: string }, row: SettingRow | null): FollowUpSetting {
  const d = defaultFollowUpSetting();
  if (!row) return { chip: chip.id, chip_name: chip.name, saved: false, ...d };
  return {
    chip: chip.id,
    chip_name: chip.name,
    saved: true,
    enabled: row.enabled,
    types: row.types,
    start_time: row.startTime,
    end_time: row.endTime,
    message_1: messageOr(row, 0, d.message_1),
    message_2: messageOr(row, 1, d.message_2),
    message_3: messageOr(row, 2, d.message_3),
  };
}

const accountChips = (db: Db, accountId: string) =>
  db
    .select({ chip: { id: chips.id, name: chips.name }, setting: followUpSettings })
    .from(chips)
    .leftJoin(followUpSettings, eq(followUpSettings.chipId, chips.id))
    .where(and(eq(chips.accountId, accountId), eq(chips.filed, false)))
    .orderBy(asc(chips.createdAt), asc(chips.id));

export async function listFollowUps(ctx: Ctx): Promise<FollowUpSetting[]> {
  const rows = await accountChips(ctx.services.db, ctx.actor.accountId);
  return rows.map((r) => toSetting(r.chip, r.setting));
}

export async function updateFollowUp(
  ctx: Ctx,
  p: FollowUpSettingInput & { chip: string },
): Promise<FollowUpSetting> {
  const { db } = ctx.services;
  const [chip] = await db
    .select({ id: chips.id, name: chips.name })
    .from(chips)
    .where(and(eq(chips.id, p.chip), eq(chips.accountId, ctx.actor.accountId), eq(chips.filed, false)))
    .limit(1);
  if (!chip) throw new AppError(followUpMessages.chipNotFound);
  const r = prepareFollowUpSetting(p);
  if (!r.ok) throw fieldFailure(r.error);
  const s = r.setting;
  const fields = {
    enabled: s.enabled,
    types: s.types,
    startTime: s.start_time,
    endTime: s.end_time,
    messages: [s.message_1, s.message_2, s.message_3],
  };
  const row = await db.transaction(async (tx) => {
    const [saved] = await tx
      .insert(followUpSettings)
      .values({ id: newId(), accountId: ctx.actor.accountId, chipId: chip.id, ...fields })
      .onConflictDoUpdate({ target: followUpSettings.chipId, set: fields })
      .returning();
    // The open conversations' next due time follows the new setting (worked out again by the engine), and
    // their follow_up_applies may change: the update moves their updated_at, so screens catching up
    // (get-changes-since) get them again.
    await tx
      .update(conversations)
      .set({ followUpDueAt: null })
      .where(and(eq(conversations.chipId, chip.id), isNull(conversations.finishedAt)));
    return saved;
  });
  if (!row) throw new Error('follow-up setting upsert returned nothing');
  await wakeFollowUps(ctx.services);
  return toSetting(chip, row);
}
