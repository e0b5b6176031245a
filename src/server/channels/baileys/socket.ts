// The part of Baileys' socket the adapter uses, and the factory that makes a real one. Tests pass a fake
// factory (tests/fakes/baileys-socket.ts) with the same event names and payloads: WhatsApp cannot be
// reached from CI, so the adapter is tested at this boundary.
import type {
  AnyMessageContent,
  AuthenticationState,
  BaileysEventMap,
  MiscMessageGenerationOptions,
  proto,
  WAMessage,
  WAMessageKey,
  WAPresence,
} from '@whiskeysockets/baileys';
import type { FastifyBaseLogger } from 'fastify';
import { labels } from '../../../shared/messages';
import { baileys } from './library';

export interface BaileysEvents {
  on<T extends keyof BaileysEventMap>(event: T, listener: (arg: BaileysEventMap[T]) => void): void;
  off<T extends keyof BaileysEventMap>(event: T, listener: (arg: BaileysEventMap[T]) => void): void;
}

export interface BaileysSocket {
  ev: BaileysEvents;
  user?: { id: string } | undefined;
  sendMessage(
    jid: string,
    content: AnyMessageContent,
    options?: MiscMessageGenerationOptions,
  ): Promise<WAMessage | undefined>;
  onWhatsApp(...jids: string[]): Promise<{ jid: string; exists: boolean }[] | undefined>;
  sendPresenceUpdate(type: WAPresence, jid?: string): Promise<void>;
  requestPairingCode(phone: string): Promise<string>;
  logout(msg?: string): Promise<void>;
  end(error: Error | undefined): void | Promise<void>;
  /** The phone number (jid) of an @lid address, from the session's mapping; null when unknown. */
  phoneOfLid(lid: string): Promise<string | null>;
  /** A media message's file, decrypted (asks the phone to upload it again when WhatsApp's copy expired). */
  downloadMedia(message: WAMessage): Promise<Buffer>;
}

export interface SocketOptions {
  auth: AuthenticationState;
  chipId: string;
  log: FastifyBaseLogger;
  /** Our sent message's content, for WhatsApp's retry requests (a recipient that failed to decrypt it). */
  getMessage(key: WAMessageKey): Promise<proto.IMessage | undefined>;
}

export type SocketFactory = (options: SocketOptions) => BaileysSocket;

/** The real WhatsApp Web socket (the library is loaded: the session was read first, loadAuthState). */
export const baileysSocketFactory: SocketFactory = ({ auth, log, getMessage }) => {
  const {
    default: makeWASocket,
    Browsers,
    downloadMediaMessage,
    isJidBroadcast,
    isJidGroup,
    isJidNewsletter,
    makeCacheableSignalKeyStore,
  } = baileys();
  // Baileys logs a lot at debug and trace: it gets its own child at warn, whatever the server's level.
  const logger = log.child({ module: 'baileys' }, { level: 'warn' }) as never;
  const sock = makeWASocket({
    auth: { creds: auth.creds, keys: makeCacheableSignalKeyStore(auth.keys, logger) },
    logger,
    browser: Browsers.ubuntu(labels.common.servicePanel),
    markOnlineOnConnect: false,
    syncFullHistory: false,
    // Groups, broadcast lists, status and channels are not served: not even decrypted.
    shouldIgnoreJid: (jid) => Boolean(isJidGroup(jid) || isJidBroadcast(jid) || isJidNewsletter(jid)),
    getMessage,
  });
  return {
    ev: sock.ev,
    get user() {
      return sock.user ? { id: sock.user.id } : undefined;
    },
    sendMessage: (jid, content, options) => sock.sendMessage(jid, content, options),
    onWhatsApp: async (...jids) =>
      (await sock.onWhatsApp(...jids))?.map((r) => ({ jid: r.jid, exists: Boolean(r.exists) })),
    sendPresenceUpdate: (type, jid) => sock.sendPresenceUpdate(type, jid),
    requestPairingCode: (phone) => sock.requestPairingCode(phone),
    logout: (msg) => sock.logout(msg),
    end: (error) => sock.end(error),
    phoneOfLid: (lid) => sock.signalRepository.lidMapping.getPNForLID(lid),
    downloadMedia: (message) =>
      downloadMediaMessage(message, 'buffer', {}, { logger, reuploadRequest: sock.updateMediaMessage }),
  };
};
