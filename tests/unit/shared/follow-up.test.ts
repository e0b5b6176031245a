// Whether an automatic follow-up applies to a conversation (spec 2 §2.3; spec 3 §2.12): the server's rule
// behind follow_up_applies, and with no setting (none can be configured yet) it applies to none.
import { describe, expect, it } from 'vitest';
import { followUpApplies, followUpTypeOf } from '@/shared/rules/follow-up';

const human = { finished: null, is_manual: true, chatbot_type: null } as const;
const bot = { finished: null, is_manual: false, chatbot_type: 'chatbot' } as const;
const flow = { finished: null, is_manual: false, chatbot_type: 'flow_chatbot' } as const;

describe('followUpApplies', () => {
  it('applies to none while no follow-up is configured', () => {
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
