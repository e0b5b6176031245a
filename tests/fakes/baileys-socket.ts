// A fake of Baileys' socket, at the boundary we do not own: an EventEmitter `ev` with Baileys 7's event names
// and payload shapes (connection.update with qr/open/close and a Boom-like lastDisconnect, creds.update,
// messages.upsert, messages.update, message-receipt.update), and the calls the adapter makes. Tests (and the
// e2e server, with BAILEYS_FAKE=1 only) drive the adapter through the real pipeline and database with it.
import { EventEmitter } from 'node:events';
import type { AnyMessageContent, MiscMessageGenerationOptions, WAMessage } from '@whiskeysockets/baileys';
import type { BaileysSocket, SocketFactory, SocketOptions } from '@/server/channels/baileys/socket';

export interface SentRecord {
  jid: string;
  content: AnyMessageContent;
  options: MiscMessageGenerationOptions | undefined;
  at: number;
}

/** A Boom-like error as Baileys puts in lastDisconnect (output.statusCode is the reason code). */
export const closeError = (statusCode: number) =>
  Object.assign(new Error(`closed ${statusCode}`), { output: { statusCode } });

export class FakeBaileysSocket implements BaileysSocket {
  readonly emitter = new EventEmitter();
  readonly ev = this.emitter as unknown as BaileysSocket['ev'];
  user: { id: string } | undefined;
  readonly sent: SentRecord[] = [];
  readonly presences: { type: string; jid?: string }[] = [];
  ended = false;
  loggedOut = false;
  /** Numbers (digits) without WhatsApp. */
  notOnWhatsApp = new Set<string>();
  /** lid (jid) → phone (jid), as the session's mapping knows it. */
  lids = new Map<string, string>();
  /** Media bytes by message id; a missing one fails the download. */
  media = new Map<string, Buffer>();
  /** The next sendMessage calls throw this (a close mid-send), one each. */
  failNextSends: Error[] = [];
  pairingCodes: string[] = [];

  constructor(readonly options: SocketOptions) {
    this.emitter.setMaxListeners(50);
  }

  emit(event: string, payload: unknown) {
    this.emitter.emit(event, payload);
  }

  get creds() {
    return this.options.auth.creds;
  }

  /** WhatsApp offers a QR code (the first, or a rotated one). */
  qr(code = `2@fake-${Math.random().toString(36).slice(2)}`) {
    this.emit('connection.update', { qr: code });
    return code;
  }

  /** The phone scanned: creds are filled as a real pairing fills them, then the socket opens. */
  scan(phone = '5511988887777') {
    const creds = this.options.auth.creds;
    creds.me = { id: `${phone}:1@s.whatsapp.net`, name: 'Fake' };
    creds.registered = true;
    this.emit('creds.update', { me: creds.me, registered: true });
    this.open(phone);
  }

  open(phone = '5511988887777') {
    this.user = { id: `${phone}:1@s.whatsapp.net` };
    this.emit('connection.update', { connection: 'open' });
  }

  close(statusCode: number) {
    this.emit('connection.update', {
      connection: 'close',
      lastDisconnect: { error: closeError(statusCode), date: new Date() },
    });
  }

  /** Customers' messages, as WhatsApp delivers them. */
  upsert(messages: WAMessage[], type: 'notify' | 'append' = 'notify') {
    this.emit('messages.upsert', { messages, type });
  }

  async sendMessage(jid: string, content: AnyMessageContent, options?: MiscMessageGenerationOptions) {
    const failure = this.failNextSends.shift();
    if (failure) throw failure;
    if (this.ended) throw closeError(428);
    this.sent.push({ jid, content, options, at: Date.now() });
    const id = options?.messageId ?? `FAKE${this.sent.length}`;
    return { key: { remoteJid: jid, fromMe: true, id }, message: {} } as WAMessage;
  }

  async onWhatsApp(...jids: string[]) {
    return jids.map((jid) => ({ jid, exists: !this.notOnWhatsApp.has(jid.split('@')[0] ?? '') }));
  }

  async sendPresenceUpdate(type: string, jid?: string) {
    this.presences.push({ type, ...(jid && { jid }) });
  }

  async requestPairingCode(phone: string) {
    const code = `FAKE${phone.slice(-4)}`;
    this.pairingCodes.push(code);
    return code;
  }

  async logout() {
    this.loggedOut = true;
  }

  end() {
    this.ended = true;
  }

  async phoneOfLid(lid: string) {
    return this.lids.get(lid) ?? null;
  }

  async downloadMedia(message: WAMessage) {
    const bytes = this.media.get(message.key.id ?? '');
    if (!bytes) throw new Error('fake: media download failed');
    return bytes;
  }
}

/** A factory that keeps every socket it made; `onCreate` scripts what WhatsApp does next. */
export function fakeBaileysFactory(onCreate?: (sock: FakeBaileysSocket) => void) {
  const sockets: FakeBaileysSocket[] = [];
  const factory: SocketFactory = (options) => {
    const sock = new FakeBaileysSocket(options);
    sockets.push(sock);
    // Baileys emits on a later tick, once the caller has its listeners on.
    setImmediate(() => onCreate?.(sock));
    return sock;
  };
  return {
    factory,
    sockets,
    last: () => {
      const s = sockets.at(-1);
      if (!s) throw new Error('no fake socket made yet');
      return s;
    },
  };
}

/** A pairing phone ending in this: the owner later removes the device on the phone (WhatsApp's 401). */
export const REMOVED_ON_PHONE_SUFFIX = '0401';

/**
 * The e2e server's WhatsApp (BAILEYS_FAKE=1): a new session shows a QR code, which "is scanned" after
 * `scanMs`; a saved session opens at once. A pairing code asked for a phone is "typed on that phone"
 * `scanMs` later instead; when that phone ends in REMOVED_ON_PHONE_SUFFIX, its owner removes the device on the
 * phone `scanMs` after it opened.
 */
export function scriptedBaileysFactory(scanMs: number): SocketFactory {
  const later = (run: () => void) => setTimeout(run, scanMs).unref?.();
  return fakeBaileysFactory((sock) => {
    if (sock.creds.registered) {
      sock.open();
      return;
    }
    sock.qr();
    const pair = sock.requestPairingCode.bind(sock);
    let paired: string | null = null;
    sock.requestPairingCode = async (phone: string) => {
      paired = phone;
      return pair(phone);
    };
    later(() => {
      if (sock.ended) return;
      const phone = paired ?? undefined;
      sock.scan(phone);
      if (phone?.endsWith(REMOVED_ON_PHONE_SUFFIX)) later(() => !sock.ended && sock.close(401));
    });
  }).factory;
}
