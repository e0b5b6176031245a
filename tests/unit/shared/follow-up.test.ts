// Whether an automatic follow-up applies to a conversation (spec 2 §2.3; spec 3 §2.12): the server's rule
// behind follow_up_applies (a chip with no setting has none); the setting's rules; the hours window and due times.
import { describe, expect, it } from 'vitest';
import { followUpMessages } from '@/shared/messages-follow-ups';
import {
  defaultFollowUpSetting,
  followUpApplies,
  followUpDelayMs,
  followUpTypeOf,
  hourInWindow,
  nextFollowUp,
  nextInWindow,
  prepareFollowUpSetting,
} from '@/shared/rules/follow-up';

const human = { finished: null, is_manual: true, chatbot_type: null } as const;
const bot = { finished: null, is_manual: false, chatbot_type: 'chatbot' } as const;
const flow = { finished: null, is_manual: false, chatbot_type: 'flow_chatbot' } as const;

describe('followUpApplies', () => {
  it('applies to none when the chip has no setting', () => {
    for (const c of [human, bot, flow]) expect(followUpApplies(c, null)).toBe(false);
  });

  it('applies when the chip’s setting is enabled for who serves the conversation, and it is open', () => {
    const setting = { enabled: true, types: ['human', 'flow_chatbot'] } as const;
    expect([human, bot, flow].map(followUpTypeOf)).toEqual(['human', 'ai_chatbot', 'flow_chatbot']);
    expect(followUpApplies(human, setting)).toBe(true);
    expect(followUpApplies(flow, setting)).toBe(true);
    expect(followUpApplies(bot, setting)).toBe(false);
    expect(followUpApplies(human, { ...setting, enabled: false })).toBe(false);
    expect(followUpApplies({ ...human, finished: '2026-05-01T12:00:00.000Z' }, setting)).toBe(false);
  });
});

describe('prepareFollowUpSetting', () => {
  const on = { ...defaultFollowUpSetting(), enabled: true };
  const withText = { ...on, message_1: { ...on.message_1, text: '  Oi?  ' } };

  it('accepts a valid setting, trimming texts and keeping the types in their order', () => {
    const r = prepareFollowUpSetting({ ...withText, types: ['human', 'ai_chatbot'] });
    expect(r).toMatchObject({
      ok: true,
      setting: { types: ['ai_chatbot', 'human'], message_1: { text: 'Oi?' } },
    });
  });

  it('names the field and the message of the first problem', () => {
    const fails = (input: typeof on) => {
      const r = prepareFollowUpSetting(input);
      return r.ok ? null : r.error;
    };
    expect(fails({ ...withText, start_time: 24 })).toEqual({
      field: 'start_time',
      message: followUpMessages.hourInvalid,
    });
    expect(fails({ ...withText, end_time: 1.5 })).toEqual({
      field: 'end_time',
      message: followUpMessages.hourInvalid,
    });
    expect(fails({ ...withText, types: [] })).toEqual({
      field: 'types',
      message: followUpMessages.typesRequired,
    });
    expect(fails(on)).toEqual({ field: 'message_1.text', message: followUpMessages.textRequired });
    expect(fails({ ...withText, message_2: { ...on.message_2, time: 1000 } })).toEqual({
      field: 'message_2.time',
      message: followUpMessages.timeInvalid,
    });
    const off = { ...on.message_1, enabled: false };
    expect(fails({ ...on, message_1: off })).toEqual({
      field: 'messages',
      message: followUpMessages.messageRequired,
    });
    // Switched off: a draft is kept as it is.
    expect(prepareFollowUpSetting({ ...on, enabled: false, types: [], message_1: off }).ok).toBe(true);
  });
});

describe('the hours window', () => {
  it('runs from the start hour up to the end hour, across midnight when start > end, all day when equal', () => {
    expect([7, 8, 17, 18].map((h) => hourInWindow(h, 8, 18))).toEqual([false, true, true, false]);
    expect([21, 22, 23, 0, 5, 6].map((h) => hourInWindow(h, 22, 6))).toEqual([
      false,
      true,
      true,
      true,
      true,
      false,
    ]);
    expect([0, 12, 23].every((h) => hourInWindow(h, 9, 9))).toBe(true);
  });

  it('moves a time outside the window to its next opening, in the zone', () => {
    const window = { start: 8, end: 18 };
    // São Paulo is UTC-3: 12:30 UTC is 09:30 there (inside), 22:10 UTC is 19:10 (outside: next day 08:00).
    const inside = new Date('2026-03-10T12:30:00Z');
    expect(nextInWindow(inside, window, 'America/Sao_Paulo')).toEqual(inside);
    expect(nextInWindow(new Date('2026-03-10T22:10:00Z'), window, 'America/Sao_Paulo')).toEqual(
      new Date('2026-03-11T11:00:00Z'),
    );
    // 06:59 there: the same day at 08:00.
    expect(nextInWindow(new Date('2026-03-10T09:59:00Z'), window, 'America/Sao_Paulo')).toEqual(
      new Date('2026-03-10T11:00:00Z'),
    );
    // A half-hour zone (India, UTC+5:30): 20:00 there is 14:30 UTC; next opening 08:00 there = 02:30 UTC.
    expect(nextInWindow(new Date('2026-03-10T14:30:00Z'), window, 'Asia/Kolkata')).toEqual(
      new Date('2026-03-11T02:30:00Z'),
    );
    // Across midnight: 22 to 6 in UTC; 12:00 waits for 22:00.
    expect(nextInWindow(new Date('2026-03-10T12:00:00Z'), { start: 22, end: 6 }, 'UTC')).toEqual(
      new Date('2026-03-10T22:00:00Z'),
    );
  });
});

describe('nextFollowUp', () => {
  const anchor = new Date('2026-03-10T12:00:00Z');
  const msg = (enabled: boolean, time: number, unit: 'minutes' | 'hours') => ({
    enabled,
    text: 'x',
    time,
    unit,
  });
  const plan = {
    start_time: 0,
    end_time: 0,
    messages: [msg(true, 30, 'minutes'), msg(true, 2, 'hours'), msg(true, 1, 'hours')],
  };

  it('times message 1 from the anchor and each next one from when the previous was sent', () => {
    expect(nextFollowUp(plan, { anchor, step: 0, lastAt: null }, 'UTC')).toMatchObject({
      step: 1,
      dueAt: new Date('2026-03-10T12:30:00Z'),
    });
    const sent1 = new Date('2026-03-10T12:31:00Z');
    expect(nextFollowUp(plan, { anchor, step: 1, lastAt: sent1 }, 'UTC')).toMatchObject({
      step: 2,
      dueAt: new Date('2026-03-10T14:31:00Z'),
    });
    expect(nextFollowUp(plan, { anchor, step: 3, lastAt: sent1 }, 'UTC')).toBeNull();
  });

  it('skips a disabled message: the next enabled one is timed from the last one sent', () => {
    const skip = {
      ...plan,
      messages: [msg(false, 30, 'minutes'), msg(true, 2, 'hours'), msg(false, 1, 'hours')],
    };
    expect(nextFollowUp(skip, { anchor, step: 0, lastAt: null }, 'UTC')).toMatchObject({
      step: 2,
      dueAt: new Date('2026-03-10T14:00:00Z'),
    });
    expect(nextFollowUp(skip, { anchor, step: 2, lastAt: anchor }, 'UTC')).toBeNull();
  });

  it('waits for the window, and a shorter minute only in tests', () => {
    const office = { ...plan, start_time: 13, end_time: 14 };
    expect(nextFollowUp(office, { anchor, step: 0, lastAt: null }, 'UTC')?.dueAt).toEqual(
      new Date('2026-03-10T13:00:00Z'),
    );
    expect(followUpDelayMs({ time: 2, unit: 'hours' })).toBe(2 * 60 * 60_000);
    expect(followUpDelayMs({ time: 2, unit: 'minutes' }, 1000)).toBe(2000);
  });
});
