// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type MessagesData, messagesKey } from '@/app/features/attendance/data/messages';
import { sendDraft } from '@/app/features/attendance/pane/send-message';
import { TYPING_MS, useLiveConversation } from '@/app/features/attendance/pane/use-live-conversation';
import { publishConversationEvent } from '@/app/lib/conversation-events';
import type { Message } from '@/shared/contract/conversations';
import { messageFixture } from './message-fixture';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const C = 'C'.repeat(28);
const OTHER = 'D'.repeat(28);
const ME = 'U'.repeat(28);

function msg(n: number, extra: Partial<Message> = {}): Message {
  return messageFixture({
    _id: `M${String(n).padStart(27, '0')}`,
    conversation_id: C,
    message: `mensagem ${n}`,
    created: new Date(Date.UTC(2026, 4, 1, 12, 0, n)).toISOString(),
    ...extra,
  });
}

let client: QueryClient;
let root: Root;
let host: HTMLElement;
const data = () => client.getQueryData<MessagesData>(messagesKey(C));
const ids = () => data()?.messages.map((m) => m._id);

beforeEach(() => {
  // The app's timers are faked (the typing time, the outbox's backoff); setImmediate is not: fake-indexeddb
  // schedules every IndexedDB step with it, and faked it moved only as fast as vi.waitFor advanced the clock
  // (50 ms a check), which on a loaded CI machine did not reach the first send within 4 s.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  client = new QueryClient();
  client.setQueryData<MessagesData>(messagesKey(C), { messages: [msg(0)], hasOlder: false });
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
});
afterEach(() => {
  act(() => root.unmount());
  host.remove();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function mount(handlers: { onFinished(user: string | null): void; onUpdated(): void }) {
  const seen: boolean[] = [];
  function Probe() {
    const { typing } = useLiveConversation(C, handlers);
    seen.push(typing);
    return null;
  }
  act(() => root.render(createElement(QueryClientProvider, { client }, createElement(Probe))));
  return { typing: () => seen.at(-1) };
}

describe('the open conversation in real time', () => {
  it("a customer's message shows after 1 s of 'digitando…'", () => {
    const probe = mount({ onFinished: vi.fn(), onUpdated: vi.fn() });
    act(() =>
      publishConversationEvent({ type: 'new_message', message: { conversation_id: C, message: msg(1) } }),
    );
    expect(probe.typing()).toBe(true);
    act(() => vi.advanceTimersByTime(TYPING_MS - 1));
    expect(ids()).toEqual([msg(0)._id]);
    act(() => vi.advanceTimersByTime(1));
    expect(ids()).toEqual([msg(0)._id, msg(1)._id]);
    expect(probe.typing()).toBe(false);
  });

  it("the team's messages, updates and reads apply at once; other conversations are left alone", () => {
    mount({ onFinished: vi.fn(), onUpdated: vi.fn() });
    const mine = msg(2, { origin: 'user', user: ME, status: 0, message_id: 'abcdefgh' });
    act(() => {
      publishConversationEvent({ type: 'new_message', message: { conversation_id: C, message: mine } });
      publishConversationEvent({
        type: 'new_message',
        message: { conversation_id: OTHER, message: { ...msg(3), conversation_id: OTHER } },
      });
      publishConversationEvent({
        type: 'message_updated',
        message: { conversation_id: C, message: { ...mine, status: 3 } },
      });
      publishConversationEvent({
        type: 'message_read',
        message: { conversation_id: C, _id: mine._id, status: 4 },
      });
    });
    expect(ids()).toEqual([msg(0)._id, mine._id]);
    expect(data()?.messages.at(-1)?.status).toBe(4);
  });

  it('conversation_finished for this conversation clears the pane, saying who', () => {
    const onFinished = vi.fn();
    mount({ onFinished, onUpdated: vi.fn() });
    act(() => {
      publishConversationEvent({ type: 'conversation_finished', message: { _id: OTHER, user: ME } });
      publishConversationEvent({ type: 'conversation_finished', message: { _id: C, user: 'V'.repeat(28) } });
    });
    expect(onFinished).toHaveBeenCalledTimes(1);
    expect(onFinished).toHaveBeenCalledWith('V'.repeat(28));
  });

  it('leaving during the typing time keeps the message', () => {
    mount({ onFinished: vi.fn(), onUpdated: vi.fn() });
    act(() =>
      publishConversationEvent({ type: 'new_message', message: { conversation_id: C, message: msg(5) } }),
    );
    act(() => root.unmount());
    root = createRoot(host);
    expect(ids()).toContain(msg(5)._id);
  });
});

// Beside CI's other suites on 2 cores a send through the outbox took seconds: each case waits up to 15 s for it
// (and is done as soon as it is there).
describe('sending', { timeout: 40_000 }, () => {
  const user = { _id: ME, name: 'Ana', signature: true };

  it('retries a lost answer under the same message_id, and the server copy replaces the provisional one', async () => {
    const bodies: { message_id: string; text: string }[] = [];
    let first = true;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        const body = JSON.parse(String(init.body));
        bodies.push(body);
        if (first) {
          first = false;
          throw new TypeError('Failed to fetch');
        }
        const stored = msg(9, {
          origin: 'user',
          user: ME,
          message: `*Ana*:\n${body.text}`,
          message_id: body.message_id,
        });
        return new Response(JSON.stringify({ error: false, message: stored }));
      }),
    );
    const sending = sendDraft(client, C, { text: 'Olá', attachment: null }, user);
    // At once: the provisional message, signed as the server will sign it.
    expect(data()?.messages.at(-1)).toMatchObject({ provisional: true, message: '*Ana*:\nOlá', status: 0 });
    // The outbox (IndexedDB) and its backoff (≤ 1 s with jitter) run on the faked timers: advanced until done.
    await vi.waitFor(() => expect(bodies).toHaveLength(2), { timeout: 15_000, interval: 50 });
    await expect(sending).resolves.toBe(true);
    await vi.waitFor(() => expect(ids()).toEqual([msg(0)._id, msg(9)._id]), {
      timeout: 15_000,
      interval: 50,
    });
    expect(bodies[0]?.message_id).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(bodies[1]?.message_id).toBe(bodies[0]?.message_id);
    expect(ids()).toEqual([msg(0)._id, msg(9)._id]);
  });

  it('a refused send leaves the pane', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ error: true, message: 'Conversa finalizada' }))),
    );
    const sending = sendDraft(client, C, { text: 'Olá', attachment: null }, user);
    // The outbox (IndexedDB) runs on the faked timers too: advanced until the refusal took the message out.
    await vi.waitFor(() => expect(ids()).toEqual([msg(0)._id]), { timeout: 15_000, interval: 50 });
    await expect(sending).resolves.toBe(false);
    expect(ids()).toEqual([msg(0)._id]);
  });
});
