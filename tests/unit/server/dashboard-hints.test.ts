// The dashboard's live hints (src/server/realtime/index.ts): which conversation events hint what, and the
// per-account throttle — the first at once, then at most one of each kind per window, trailing.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DASHBOARD_HINT_MS, dashboardHintOf, dashboardHints } from '@/server/realtime';
import type { Conversation, Message } from '@/shared/contract/conversations';

const conversation = { _id: 'C1', chip: 'CHIP1' } as Conversation;
const message = (origin: Message['origin']) =>
  ({ type: 'new_message', message: { conversation_id: 'C1', message: { origin } as Message } }) as const;

describe('dashboardHintOf', () => {
  it('opened or finished: load_open_conversations; other changes and customer messages: load_realtime', () => {
    expect(dashboardHintOf({ type: 'new_conversation', message: conversation })).toEqual({
      type: 'load_open_conversations',
      chipId: 'CHIP1',
    });
    expect(dashboardHintOf({ type: 'conversation_finished', message: { _id: 'C1', user: null } })).toEqual({
      type: 'load_open_conversations',
      chipId: null,
    });
    expect(dashboardHintOf({ type: 'conversation_updated', message: conversation })).toEqual({
      type: 'load_realtime',
      chipId: 'CHIP1',
    });
    expect(dashboardHintOf({ type: 'set_manual', message: { _id: 'C1', user: 'U1' } })?.type).toBe(
      'load_realtime',
    );
    expect(dashboardHintOf(message('customer'))?.type).toBe('load_realtime');
    // A team or chatbot message changes no card by itself (its 'answered' change is a conversation_updated).
    expect(dashboardHintOf(message('user'))).toBeNull();
    expect(dashboardHintOf(message('chatbot'))).toBeNull();
    expect(
      dashboardHintOf({ type: 'message_read', message: { conversation_id: 'C1', _id: 'M1', status: 4 } }),
    ).toBeNull();
  });
});

describe('dashboardHints', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('the first at once, a burst as one trailing hint per kind, per account', () => {
    const sent: [string, string, string | null][] = [];
    const hints = dashboardHints((account, e) => sent.push([account, e.type, e.message.chip_id]));
    hints.push('A', 'load_realtime', 'CHIP1');
    expect(sent).toEqual([['A', 'load_realtime', 'CHIP1']]);
    for (let i = 0; i < 50; i++) hints.push('A', 'load_realtime', 'CHIP1');
    hints.push('A', 'load_open_conversations', 'CHIP2');
    // Another account is not held back by A's window.
    hints.push('B', 'load_realtime', null);
    expect(sent).toHaveLength(2);
    vi.advanceTimersByTime(DASHBOARD_HINT_MS - 1);
    expect(sent).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sent.slice(2)).toEqual([
      ['A', 'load_realtime', 'CHIP1'],
      ['A', 'load_open_conversations', 'CHIP2'],
    ]);
    // Two chips in one window: the hint names none.
    hints.push('A', 'load_realtime', 'CHIP1');
    hints.push('A', 'load_realtime', 'CHIP2');
    vi.advanceTimersByTime(DASHBOARD_HINT_MS);
    expect(sent.at(-1)).toEqual(['A', 'load_realtime', null]);
    // Quiet for a window: the next hint goes at once again.
    vi.advanceTimersByTime(DASHBOARD_HINT_MS * 2);
    const before = sent.length;
    hints.push('A', 'load_realtime', 'CHIP1');
    expect(sent).toHaveLength(before + 1);
    hints.close();
  });
});
