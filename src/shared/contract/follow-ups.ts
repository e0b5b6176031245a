// Automatic follow-ups (spec 3 §2.12, §3 Auto follow-up per chip, §5, §7 'follow-ups: get all, update'). One
// setting per chip; the rules in ../rules/follow-up.ts decide the messages on both sides. Plan gate
// 'integrations' (max_channels above 1) and access area 'follow-ups' (spec 3 §6).
import { z } from 'zod';
import { id } from './common';
import { defineCall } from './define';

/** Who serves a conversation, in the setting's words (spec 3 §3), and the units of a message's time. */
export const FOLLOW_UP_TYPES = ['ai_chatbot', 'flow_chatbot', 'human'] as const;
export const FOLLOW_UP_UNITS = ['minutes', 'hours'] as const;

const followUpMessage = z.object({
  enabled: z.boolean(),
  text: z.string().max(4096),
  time: z.number().int(),
  unit: z.enum(FOLLOW_UP_UNITS),
});

const settingFields = {
  enabled: z.boolean(),
  types: z.array(z.enum(FOLLOW_UP_TYPES)).max(FOLLOW_UP_TYPES.length),
  /** Whole hours 0 to 23 in the account's time zone; the rule (not the schema) names a wrong one. */
  start_time: z.number().int(),
  end_time: z.number().int(),
  message_1: followUpMessage,
  message_2: followUpMessage,
  message_3: followUpMessage,
};

/** A chip's setting; a chip with none saved is answered with the defaults (`saved: false`). */
export const followUpSetting = z.object({
  chip: id,
  chip_name: z.string(),
  saved: z.boolean(),
  ...settingFields,
});
export type FollowUpSetting = z.infer<typeof followUpSetting>;

const manageFollowUps = { area: 'follow-ups', plan: 'integrations' } as const;

export const followUpsCalls = {
  /** Every chip of the account with its setting, in the chips' order. */
  'get-follow-ups': defineCall({
    access: manageFollowUps,
    payload: z.object({}),
    answer: z.array(followUpSetting),
  }),
  /** Saves one chip's setting: 'Configurações atualizadas com sucesso!'. A repeat saves the same. */
  'update-follow-up': defineCall({
    access: manageFollowUps,
    payload: z.object({ chip: id, ...settingFields }),
    answer: followUpSetting,
  }),
};
