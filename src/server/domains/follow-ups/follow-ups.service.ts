// Automatic follow-up settings (spec 3 §2.12, §7 'follow-ups: get all, update'): one per chip of the account.
// A save also drops the cached due times of the chip's waiting conversations (jobs/follow-ups.ts works them
// out again with the new setting) in the same transaction, and wakes the engine.
import type { FollowUpSetting } from '../../../shared/contract/follow-ups';
import { messages } from '../../../shared/messages';
import {
  defaultFollowUpSetting,
  type FollowUpMessage,
  type FollowUpSettingInput,
  prepareFollowUpSetting,
} from '../../../shared/rules/follow-up';
import type { Actor } from '../../access';
import { AppError, fieldFailure } from '../../http/errors';
import type { Services } from '../../services';
import { followUpsRepo as repo, type FollowUpSettingRow as SettingRow } from './follow-ups.repo';
import { wakeFollowUps } from './wake';

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

export async function listFollowUps(services: Services, actor: Actor): Promise<FollowUpSetting[]> {
  const rows = await repo.chipsWithSettings(services.db, actor);
  return rows.map((r) => toSetting(r.chip, r.setting));
}

export async function updateFollowUp(
  services: Services,
  actor: Actor,
  p: FollowUpSettingInput & { chip: string },
): Promise<FollowUpSetting> {
  const { db } = services;
  const chip = await repo.chip(db, actor, p.chip);
  if (!chip) throw new AppError(messages.chipNotFound);
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
  const row = await db.transaction((tx) => repo.save(tx, actor, chip.id, fields));
  await wakeFollowUps(services);
  return toSetting(chip, row);
}
