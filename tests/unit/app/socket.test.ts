import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type AppSocket, createSocketClient, type SocketStatus, socketFailedText } from '@/app/lib/socket';
import { messages } from '@/shared/messages';

/** A socket.io stand-in: the test decides when a connection succeeds or fails. */
class FakeSocket {
  handlers = new Map<string, ((...args: unknown[]) => void)[]>();
  connected = false;
  connects = 0;
  emitted: unknown[][] = [];
  on(event: string, fn: (...args: unknown[]) => void) {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), fn]);
    return this;
  }
  fire(event: string, ...args: unknown[]) {
    if (event === 'connect') this.connected = true;
    if (event === 'disconnect') this.connected = false;
    for (const fn of this.handlers.get(event) ?? []) fn(...args);
  }
  connect() {
    this.connects += 1;
  }
  disconnect() {
    this.connected = false;
  }
  emit(...args: unknown[]) {
    this.emitted.push(args);
  }
  removeAllListeners() {
    this.handlers.clear();
  }
}

let fake: FakeSocket;
let statuses: SocketStatus[];
beforeEach(() => {
  vi.useFakeTimers();
  fake = new FakeSocket();
  statuses = [];
});
afterEach(() => vi.useRealTimers());

function client(address: () => string | null = () => 'http://localhost') {
  return createSocketClient({
    address,
    token: () => 'tok',
    accountId: 'ACC',
    onStatus: (s) => statuses.push(s),
    onEvent: () => undefined,
    create: () => fake as unknown as AppSocket,
  });
}

describe('socket client retry rules (spec 1 §7, §8)', () => {
  it('a refused token ends the session at once, without retries (a revoked session)', () => {
    let ended = 0;
    createSocketClient({
      address: () => 'http://localhost',
      token: () => 'tok',
      accountId: 'ACC',
      onStatus: (s) => statuses.push(s),
      onEvent: () => undefined,
      onUnauthorized: () => {
        ended += 1;
      },
      create: () => fake as unknown as AppSocket,
    }).start();
    fake.fire('connect', undefined);
    fake.fire('disconnect', 'io server disconnect');
    vi.advanceTimersByTime(2500);
    expect(fake.connects).toBe(2);
    fake.fire('connect_error', new Error(messages.unauthorized));
    expect(ended).toBe(1);
    vi.advanceTimersByTime(60_000);
    expect(fake.connects).toBe(2);
    expect(statuses).not.toContain('failed');
  });

  it('connects and joins the account room', () => {
    client().start();
    expect(fake.connects).toBe(1);
    fake.fire('connect');
    expect(statuses).toEqual(['connecting', 'connected']);
    expect(fake.emitted).toEqual([['join-room', 'account_ACC']]);
  });

  it('retries up to 3 times, waiting 500 ms + 2 s × attempt, then gives up', () => {
    client().start();
    fake.fire('connect_error', new Error('x'));
    vi.advanceTimersByTime(2499);
    expect(fake.connects).toBe(1);
    vi.advanceTimersByTime(1);
    expect(fake.connects).toBe(2); // retry 1 after 2.5 s
    fake.fire('connect_error', new Error('x'));
    vi.advanceTimersByTime(4500);
    expect(fake.connects).toBe(3); // retry 2 after 4.5 s
    fake.fire('connect_error', new Error('x'));
    vi.advanceTimersByTime(6500);
    expect(fake.connects).toBe(4); // retry 3 after 6.5 s
    fake.fire('connect_error', new Error('x'));
    expect(statuses.at(-1)).toBe('failed');
    vi.advanceTimersByTime(60_000);
    expect(fake.connects).toBe(4);
  });

  it('waits for an unknown address with the same rule', () => {
    let address: string | null = null;
    client(() => address).start();
    expect(statuses).toEqual(['waiting-address']);
    vi.advanceTimersByTime(2500);
    expect(statuses).toEqual(['waiting-address', 'waiting-address']);
    address = 'http://localhost';
    vi.advanceTimersByTime(4500);
    expect(statuses.at(-1)).toBe('connecting');
    fake.fire('connect');
    expect(statuses.at(-1)).toBe('connected');
  });

  it('a connection that drops gets a fresh retry budget; a pause counts nothing', () => {
    const c = client();
    c.start();
    fake.fire('connect');
    fake.fire('disconnect', 'transport close');
    vi.advanceTimersByTime(2500);
    expect(fake.connects).toBe(2);
    fake.fire('connect');
    expect(statuses.at(-1)).toBe('connected');

    c.pause();
    expect(statuses.at(-1)).toBe('paused');
    vi.advanceTimersByTime(60_000);
    expect(fake.connects).toBe(2);
    c.start();
    expect(fake.connects).toBe(3);
  });

  it('has the spec texts for the shell', () => {
    expect(messages.socketWaiting).toBe('Aguardando endereço do socket...');
    expect(messages.socketFailed).toBe(
      'Erro na conexão com o socket. Atualize a página para tentar novamente.',
    );
  });
});

describe('socket.io loaded on demand (not with the shell)', () => {
  function lazyClient() {
    let made = 0;
    let resolve: (s: AppSocket) => void = () => undefined;
    const c = createSocketClient({
      address: () => 'http://localhost',
      token: () => 'tok',
      accountId: 'ACC',
      onStatus: (s) => statuses.push(s),
      onEvent: () => undefined,
      create: () => {
        made += 1;
        return new Promise<AppSocket>((r) => {
          resolve = r;
        });
      },
    });
    return { c, made: () => made, load: () => resolve(fake as unknown as AppSocket) };
  }

  it('connects once the library has loaded, and a restart meanwhile does not create a second socket', async () => {
    const { c, made, load } = lazyClient();
    c.start();
    expect(statuses).toEqual(['connecting']);
    c.start();
    expect(made()).toBe(1);
    load();
    await vi.waitFor(() => expect(fake.connects).toBe(1));
    fake.fire('connect');
    expect(fake.emitted).toEqual([['join-room', expect.any(String)]]);
    expect(statuses.at(-1)).toBe('connected');
  });

  it('a stop while the library loads connects nothing', async () => {
    const { c, load } = lazyClient();
    c.start();
    c.stop();
    load();
    await Promise.resolve();
    await Promise.resolve();
    expect(fake.connects).toBe(0);
  });
});

describe('the socket failure in the screen’s words (spec 3 §4)', () => {
  it('the templates screen says it short; every other screen in full', () => {
    expect(socketFailedText('/templates')).toBe('Erro na conexão com o socket. Atualize a página.');
    expect(socketFailedText('/atendimento')).toBe(messages.socketFailed);
    expect(socketFailedText('/')).toBe(
      'Erro na conexão com o socket. Atualize a página para tentar novamente.',
    );
  });
});
