// Whether an automatic follow-up applies to a conversation: the menu offers 'Desativar follow-up automático'
// only then (spec 2 §2.3: 'only when the conversation has one'). A follow-up is configured per chip (spec 3
// §2.12, §3: enabled, and the types it serves: ai_chatbot, flow_chatbot, human). The server decides with the
// chip's setting and sends the answer as `follow_up_applies` (a chip with no setting saved has none). The
// conversation's own auto_follow_up is the switch the user turns off (it returns with a new conversation): a
// follow-up runs when it applies and that switch is on. Below: the setting's rules, the hours window and the
// due times the engine (src/server/jobs/follow-ups.ts) follows.
import type { Conversation } from '../contract/conversations';
import { FOLLOW_UP_TYPES, FOLLOW_UP_UNITS } from '../contract/follow-ups';
import { followUpMessages } from '../messages-follow-ups';
import { type FieldError, fieldError } from './field-error';

export type FollowUpType = (typeof FOLLOW_UP_TYPES)[number];

/** A chip's automatic follow-up setting, as far as whom it serves. */
export interface AutoFollowUpSetting {
  enabled: boolean;
  types: readonly FollowUpType[];
}

type Subject = Pick<Conversation, 'finished' | 'is_manual' | 'chatbot_type'>;

/** Who serves the conversation, in the follow-up setting's words; null when nobody does yet. */
export function followUpTypeOf(c: Subject): FollowUpType | null {
  if (c.is_manual) return 'human';
  if (c.chatbot_type === 'chatbot') return 'ai_chatbot';
  if (c.chatbot_type === 'flow_chatbot') return 'flow_chatbot';
  return null;
}

/** The chip's setting (null: none configured) applies to this open conversation. */
export function followUpApplies(c: Subject, setting: AutoFollowUpSetting | null): boolean {
  if (!setting?.enabled || c.finished !== null) return false;
  const type = followUpTypeOf(c);
  return type !== null && setting.types.includes(type);
}

// ---- The setting as the screen edits it, its rules, and the timing the engine follows (jobs/follow-ups.ts).

export { FOLLOW_UP_TYPES, FOLLOW_UP_UNITS };
export type FollowUpUnit = (typeof FOLLOW_UP_UNITS)[number];
/** Spec 3 §5, §9: at most 3 messages, hours 0 to 23. */
export const MAX_FOLLOW_UP_MESSAGES = 3;
export const MAX_FOLLOW_UP_TIME = 999;

export interface FollowUpMessage {
  enabled: boolean;
  text: string;
  time: number;
  unit: FollowUpUnit;
}

export interface FollowUpSettingInput {
  enabled: boolean;
  types: FollowUpType[];
  start_time: number;
  end_time: number;
  message_1: FollowUpMessage;
  message_2: FollowUpMessage;
  message_3: FollowUpMessage;
}

export const FOLLOW_UP_MESSAGE_KEYS = ['message_1', 'message_2', 'message_3'] as const;
export type FollowUpField =
  | 'types'
  | 'start_time'
  | 'end_time'
  | 'messages'
  | `${(typeof FOLLOW_UP_MESSAGE_KEYS)[number]}.${'text' | 'time'}`;

/** A chip with nothing saved yet: off, for human service, 08:00 to 18:00, one message after 30 minutes. */
export const defaultFollowUpSetting = (): FollowUpSettingInput => ({
  enabled: false,
  types: ['human'],
  start_time: 8,
  end_time: 18,
  message_1: { enabled: true, text: '', time: 30, unit: 'minutes' },
  message_2: { enabled: false, text: '', time: 2, unit: 'hours' },
  message_3: { enabled: false, text: '', time: 24, unit: 'hours' },
});

const validHour = (h: number) => Number.isInteger(h) && h >= 0 && h <= 23;

/**
 * The setting's rules (spec 3 §5 Follow-up). Hours are whole hours 0 to 23; an enabled message needs a text and
 * a time of 1 to 999. A setting switched on must serve at least one type and send at least one message; one
 * switched off is kept as typed (the screen keeps a draft), only its hours and times still checked.
 */
export function prepareFollowUpSetting(
  input: FollowUpSettingInput,
): { ok: true; setting: FollowUpSettingInput } | { ok: false; error: FieldError<FollowUpField> } {
  if (!validHour(input.start_time)) return bad('start_time', followUpMessages.hourInvalid);
  if (!validHour(input.end_time)) return bad('end_time', followUpMessages.hourInvalid);
  const types = FOLLOW_UP_TYPES.filter((t) => input.types.includes(t));
  if (input.enabled && !types.length) return bad('types', followUpMessages.typesRequired);
  for (const key of FOLLOW_UP_MESSAGE_KEYS) {
    const m = input[key];
    if (!Number.isInteger(m.time) || m.time < 1 || m.time > MAX_FOLLOW_UP_TIME)
      return bad(`${key}.time`, followUpMessages.timeInvalid);
    if (m.enabled && !m.text.trim()) return bad(`${key}.text`, followUpMessages.textRequired);
  }
  if (input.enabled && !FOLLOW_UP_MESSAGE_KEYS.some((k) => input[k].enabled))
    return bad('messages', followUpMessages.messageRequired);
  const trimmed = (m: FollowUpMessage): FollowUpMessage => ({ ...m, text: m.text.trim() });
  return {
    ok: true,
    setting: {
      ...input,
      types,
      message_1: trimmed(input.message_1),
      message_2: trimmed(input.message_2),
      message_3: trimmed(input.message_3),
    },
  };
}

const bad = (field: FollowUpField, message: string) => ({
  ok: false as const,
  error: fieldError(field, message),
});

/** How long `time unit` lasts; `minuteMs` is a minute's length (shorter only in tests, FOLLOW_UP_MINUTE_SECONDS). */
export const followUpDelayMs = (m: Pick<FollowUpMessage, 'time' | 'unit'>, minuteMs = 60_000) =>
  m.time * (m.unit === 'hours' ? 60 : 1) * minuteMs;

/** The hour (0 to 23) and the milliseconds into it, at `at` in the IANA zone `timeZone`. */
function localHour(at: Date, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(at);
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { hour: n('hour'), intoHour: (n('minute') * 60 + n('second')) * 1000 + at.getUTCMilliseconds() };
}

/**
 * Whether the hour `hour` is inside the window: from start_time:00 up to end_time:00 (the end hour itself is
 * outside). start > end is a window across midnight (22 to 6: nights); start == end means the whole day (an
 * empty window would make the setting useless, so it reads as "no limit").
 */
export function hourInWindow(hour: number, start: number, end: number) {
  if (start === end) return true;
  return start < end ? hour >= start && hour < end : hour >= start || hour < end;
}

/** `at` itself when it is inside the window in `timeZone`, else the window's next opening. */
export function nextInWindow(at: Date, window: { start: number; end: number }, timeZone: string): Date {
  let { hour, intoHour } = localHour(at, timeZone);
  if (hourInWindow(hour, window.start, window.end)) return at;
  // Hour by hour in local time (zones with half-hour offsets included): a day and a DST change at most.
  let t = at.getTime() - intoHour;
  for (let i = 0; i < 50; i++) {
    t += 60 * 60 * 1000;
    ({ hour, intoHour } = localHour(new Date(t), timeZone));
    t -= intoHour;
    if (hourInWindow(hour, window.start, window.end)) return new Date(t);
  }
  return at;
}

/** Where a conversation's follow-up stands: its anchor, the last step sent (0: none) and when. */
export interface FollowUpState {
  anchor: Date;
  step: number;
  lastAt: Date | null;
}

export interface FollowUpPlan {
  start_time: number;
  end_time: number;
  messages: readonly FollowUpMessage[];
}

/**
 * The next follow-up to send, or null when none is left. Message n is due its time after the previous one was
 * SENT (message 1: after the anchor, the business's unanswered message); a disabled message is skipped, and
 * the next enabled one is timed from the last one sent (or the anchor). A time outside the hours window waits
 * for the window's next opening in the account's zone.
 */
export function nextFollowUp(
  plan: FollowUpPlan,
  state: FollowUpState,
  timeZone: string,
  minuteMs = 60_000,
): { step: number; message: FollowUpMessage; dueAt: Date } | null {
  for (let step = state.step + 1; step <= MAX_FOLLOW_UP_MESSAGES; step++) {
    const message = plan.messages[step - 1];
    if (!message?.enabled || !message.text.trim()) continue;
    const from = state.lastAt ?? state.anchor;
    const due = new Date(from.getTime() + followUpDelayMs(message, minuteMs));
    return {
      step,
      message,
      dueAt: nextInWindow(due, { start: plan.start_time, end: plan.end_time }, timeZone),
    };
  }
  return null;
}
