// Baileys: ordinary WhatsApp numbers connected by QR code (or a pairing code), through WhatsApp Web's
// protocol. One socket per connected chip, held by one server process at a time (its lease in
// baileys.repo.ts); its session lives in the database (auth-state.ts). What customers send is kept in
// channel_inbox before it is handled, one chip's messages one after another in the order WhatsApp sent them,
// so a crash or a long outage never loses one and the pipeline's unique provider id never stores one twice.
import { createHash, randomUUID } from 'node:crypto';
import type { Boom } from '@hapi/boom';
import type { AnyMessageContent, WAMessage, WAMessageKey } from '@whiskeysockets/baileys';
import { newId } from '../../../shared/ids';
import { messages as texts } from '../../../shared/messages';
import { baileysMessages as baileysTexts } from '../../../shared/messages-baileys';
import { normalizePhone } from '../../../shared/phone';
import { systemActor } from '../../access';
import { channelChipsRepo, channelInboxRepo } from '../../domains/chips/channel-chips.repo';
import { AppError } from '../../http/errors';
import type { Services } from '../../services';
import {
  type ChannelAdapter,
  ChannelError,
  type ChannelSink,
  type ChipRow,
  type OutboundContent,
} from '../adapter';
import { VOICE_NOTE_MIME, voiceNoteAsOpus } from '../voice-note';
import { type DbAuthState, loadAuthState } from './auth-state';
import { baileysRepo } from './baileys.repo';
import {
  fromJson,
  type InboundAction,
  phoneOfKey,
  readMessage,
  readUpdate,
  receiptOf,
  timestampOf,
  toJson,
} from './inbound';
import { baileys, loadBaileys } from './library';
import { queueBaileysMediaDownload } from './media-retry';
import { type BaileysSocket, baileysSocketFactory, type SocketFactory } from './socket';

export type { BaileysSocket, SocketFactory } from './socket';

/** Waits before reconnecting after the n-th failure in a row: 1 s doubling to 60 s, with ±30 % jitter. */
/** A WhatsApp message id (as Baileys makes them: 3EB0 and 18 hex digits) fixed by a send's key. */
export function messageIdOf(key: string) {
  return `3EB0${createHash('sha256').update(key).digest('hex').slice(0, 18).toUpperCase()}`;
}

export function reconnectDelayMs(attempt: number, random = Math.random) {
  const base = Math.min(60_000, 1000 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.7 + 0.6 * random()));
}

/** What a close with WhatsApp's reason code means: reconnect, or stop with a pt-BR reason. */
export function closeOutcome(
  code: number | undefined,
  registered: boolean,
): { reconnect: 'now' | 'backoff' } | { reconnect: false; forget: boolean; reason: string } {
  const { DisconnectReason } = baileys();
  switch (code) {
    case DisconnectReason.loggedOut:
      return { reconnect: false, forget: true, reason: baileysTexts.loggedOut };
    case DisconnectReason.connectionReplaced:
      return { reconnect: false, forget: false, reason: baileysTexts.replaced };
    case DisconnectReason.forbidden:
      return { reconnect: false, forget: false, reason: baileysTexts.forbidden };
    case DisconnectReason.badSession:
      return { reconnect: false, forget: true, reason: baileysTexts.badSession };
    case DisconnectReason.multideviceMismatch:
      return { reconnect: false, forget: true, reason: baileysTexts.outdated };
    case DisconnectReason.restartRequired:
      // The usual close right after a QR scan: the new login reconnects at once.
      return { reconnect: 'now' };
  }
  // A QR never scanned ends with WhatsApp's time-out: back to Desconectado, no loop of new codes.
  if (!registered) return { reconnect: false, forget: false, reason: baileysTexts.qrTimeout };
  return { reconnect: 'backoff' };
}

interface Session {
  chipId: string;
  accountId: string;
  sock: BaileysSocket;
  auth: DbAuthState;
  open: boolean;
  /** Set by disconnect, reset and stop: the socket's close is ours, nothing reconnects. */
  ended: boolean;
  qrTimer?: NodeJS.Timeout;
  openWaiters: (() => void)[];
}

interface ChipState {
  session?: Session;
  attempt: number;
  reconnectTimer?: NodeJS.Timeout;
  heartbeat?: NodeJS.Timeout;
  /** Polls for the lease while another process holds the chip (it takes over when that one dies). */
  takeover?: NodeJS.Timeout;
  /** Sends of this chip, one after another with the minimum gap. */
  sendChain: Promise<unknown>;
  lastSendAt: number;
  /** Inbound handling of this chip, in order. */
  inboundChain: Promise<void>;
  /** A connect started and not yet answered (two clicks start one socket). */
  opening?: Promise<void>;
}

export interface BaileysChannel {
  adapter: ChannelAdapter;
  /** A pairing code to type on the phone (WhatsApp > Aparelhos conectados > Conectar com número). */
  pairingCode(chip: ChipRow, phone: string): Promise<string>;
  /** Resolves once every inbound message received so far is handled (tests, shutdown). */
  idle(): Promise<void>;
  /** The live socket of a chip in this process, if it holds it (tests, media retries). */
  socketOf(chipId: string): BaileysSocket | null;
  /** This process's id in the leases. */
  readonly processId: string;
  /**
   * Drops the chip here as a crashed process would: the socket is gone, the lease is neither renewed nor
   * released and runs out by itself (the takeover tests).
   */
  abandon(chipId: string): void;
}

/** How long connect waits for WhatsApp's first word before answering (the socket events follow anyway). */
const CONNECT_ANSWER_MS = 15_000;
const jidOf = (phone: string) => `${phone.replace(/\D/g, '')}@s.whatsapp.net`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const codeOf = (err: unknown) => (err as Boom | undefined)?.output?.statusCode;

export function createBaileysChannel(deps: {
  sink: ChannelSink;
  services: () => Services;
  socketFactory?: SocketFactory;
  processId?: string;
}): BaileysChannel {
  const processId = deps.processId ?? `${process.pid}-${randomUUID()}`;
  const factory = deps.socketFactory ?? baileysSocketFactory;
  const states = new Map<string, ChipState>();
  const pending = new Set<Promise<void>>();
  let stopping = false;
  const svc = () => deps.services();
  const config = () => svc().config;
  const leaseMs = () => config().BAILEYS_LEASE_SECONDS * 1000;
  /** An audio file as itself; a voice note as push-to-talk Ogg/Opus when ffmpeg is there (voice-note.ts). */
  const audioPayload = async (file: Buffer, mime: string, voice: boolean) => {
    const opus = voice ? await voiceNoteAsOpus(config().FFMPEG_PATH, file, mime, svc().log) : null;
    return opus
      ? { audio: opus, mimetype: VOICE_NOTE_MIME, ptt: true }
      : { audio: file, mimetype: mime, ptt: voice };
  };

  const stateOf = (chipId: string) => {
    let s = states.get(chipId);
    if (!s) {
      s = { attempt: 0, sendChain: Promise.resolve(), lastSendAt: 0, inboundChain: Promise.resolve() };
      states.set(chipId, s);
    }
    return s;
  };

  const track = (p: Promise<void>) => {
    const run = p.finally(() => pending.delete(run));
    pending.add(run);
    return run;
  };

  function clearTimers(state: ChipState) {
    clearTimeout(state.reconnectTimer);
    clearInterval(state.heartbeat);
    clearInterval(state.takeover);
    state.reconnectTimer = state.heartbeat = state.takeover = undefined;
  }

  /** Ends the chip's socket in this process; `release`: give the lease back for another process. */
  async function endSession(chipId: string, release: boolean) {
    const state = stateOf(chipId);
    clearTimers(state);
    const session = state.session;
    state.session = undefined;
    if (session) {
      session.ended = true;
      clearTimeout(session.qrTimer);
      try {
        await session.sock.end(undefined);
      } catch {
        // already closed
      }
    }
    if (release) await baileysRepo.releaseLease(svc().db, chipId, processId);
  }

  async function closeWith(chipId: string, reason: string | undefined, forget: boolean) {
    await endSession(chipId, true);
    if (forget) await baileysRepo.clearSession(svc().db, chipId);
    await deps.sink.status(chipId, 'close', reason);
  }

  function startHeartbeat(chipId: string) {
    const state = stateOf(chipId);
    clearInterval(state.heartbeat);
    state.heartbeat = setInterval(
      () => {
        void baileysRepo
          .acquireLease(svc().db, chipId, processId, leaseMs())
          .then(async (held) => {
            // The session ended while this renewal was on its way (its release came first): give the lease
            // back again, or the chip stays held by a process with no socket until the lease runs out.
            if (held && !state.session) {
              await baileysRepo.releaseLease(svc().db, chipId, processId);
              return;
            }
            // Another process took the chip (we were stalled past the lease): it holds the socket now.
            if (!held && state.session) {
              svc().log.warn({ chipId }, 'baileys: lease lost, socket closed here');
              await endSession(chipId, false);
            }
          })
          .catch((err: unknown) => svc().log.warn({ err, chipId }, 'baileys: lease renewal failed'));
      },
      Math.max(200, leaseMs() / 3),
    );
    state.heartbeat.unref?.();
  }

  /** Polls until this process can take the chip (its holder stopped renewing), then resumes it. */
  function watchForTakeover(chip: ChipRow) {
    const state = stateOf(chip.id);
    if (state.takeover || stopping) return;
    state.takeover = setInterval(
      () => {
        void (async () => {
          if (state.session || stopping) return;
          const current = await channelChipsRepo.byId(svc().db, chip.id);
          if (!current || current.filed || current.provider !== 'baileys') {
            clearInterval(state.takeover);
            state.takeover = undefined;
            return;
          }
          if (!(await baileysRepo.hasSession(svc().db, chip.id))) return;
          if (await baileysRepo.acquireLease(svc().db, chip.id, processId, leaseMs())) {
            clearInterval(state.takeover);
            state.takeover = undefined;
            await openSocket(current);
          }
        })().catch((err: unknown) => svc().log.warn({ err, chipId: chip.id }, 'baileys: takeover failed'));
      },
      Math.max(200, leaseMs() / 2),
    );
    state.takeover.unref?.();
  }

  async function getMessage(chipId: string, key: WAMessageKey) {
    if (!key.id) return undefined;
    const row = await baileysRepo.message(svc().db, chipId, key.id);
    return row ? { conversation: row.message } : undefined;
  }

  /**
   * Opens the chip's socket; the caller holds the lease. Resolves once the socket is made; `settled` once
   * WhatsApp first answered (a QR code, open or closed), so connect's answer shows the chip as it stands.
   */
  async function openSocket(chip: ChipRow): Promise<{ settled: Promise<void> }> {
    const state = stateOf(chip.id);
    const log = svc().log;
    const auth = await loadAuthState(svc().db, chip.id, (reason) =>
      log.warn({ chipId: chip.id, reason }, 'baileys: saved session unreadable, a new QR is needed'),
    );
    const sock = factory({
      auth: auth.state,
      chipId: chip.id,
      log,
      getMessage: (key) => getMessage(chip.id, key),
    });
    const session: Session = {
      chipId: chip.id,
      accountId: chip.accountId,
      sock,
      auth,
      open: false,
      ended: false,
      openWaiters: [],
    };
    state.session = session;
    let settle: () => void = () => undefined;
    const settled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    startHeartbeat(chip.id);
    const live = () => state.session === session && !session.ended;

    sock.ev.on('creds.update', () => {
      if (!live()) return;
      void auth
        .saveCreds()
        .catch((err: unknown) => log.error({ err, chipId: chip.id }, 'baileys: creds not saved'));
    });

    let qrShown = false;
    sock.ev.on('connection.update', (update) => {
      if (!live()) return;
      void (async () => {
        if (update.qr) {
          if (!qrShown) {
            qrShown = true;
            // A code nobody scans: the chip goes back to Desconectado instead of rotating codes for ever.
            session.qrTimer = setTimeout(() => {
              if (live() && !session.open) void closeWith(chip.id, baileysTexts.qrTimeout, false);
            }, config().BAILEYS_QR_TIMEOUT_SECONDS * 1000);
            session.qrTimer.unref?.();
          }
          await deps.sink.qrcode(chip.id, update.qr);
          settle();
        }
        if (update.connection === 'open') {
          clearTimeout(session.qrTimer);
          session.open = true;
          state.attempt = 0;
          const me = sock.user?.id ? normalizePhone(sock.user.id.split(/[:@]/)[0] ?? '') : null;
          if (me) {
            await channelChipsRepo.setPhoneInfo(svc().db, systemActor(chip.accountId, 'baileys'), chip.id, {
              displayPhoneNumber: me,
              phoneNumberQuality: null,
            });
          }
          await deps.sink.status(chip.id, 'open');
          settle();
          for (const wake of session.openWaiters.splice(0)) wake();
        }
        if (update.connection === 'close') {
          session.open = false;
          clearTimeout(session.qrTimer);
          const code = codeOf(update.lastDisconnect?.error);
          const registered = Boolean(auth.state.creds.registered || auth.state.creds.me);
          const outcome = closeOutcome(code, registered);
          log.info({ chipId: chip.id, code, outcome }, 'baileys: connection closed');
          state.session = undefined;
          session.ended = true;
          if (outcome.reconnect === false) {
            await closeWith(chip.id, outcome.reason, outcome.forget);
            settle();
            return;
          }
          // Network loss and WhatsApp's restarts: reconnect, keeping the lease; the team sees Conectando.
          state.attempt++;
          const wait = outcome.reconnect === 'now' ? 0 : reconnectDelayMs(state.attempt);
          if (outcome.reconnect === 'backoff' && state.attempt === 1)
            await deps.sink.status(chip.id, 'connecting');
          clearTimeout(state.reconnectTimer);
          state.reconnectTimer = setTimeout(() => {
            void reconnect(chip.id).catch((err: unknown) =>
              log.error({ err, chipId: chip.id }, 'baileys: reconnect failed'),
            );
          }, wait);
        }
      })()
        .catch((err: unknown) => log.error({ err, chipId: chip.id }, 'baileys: connection update failed'))
        .finally(() => {
          if (update.connection === 'close') settle();
        });
    });

    sock.ev.on('messages.upsert', ({ messages: list, type }) => {
      // 'notify': new messages, those that arrived while we were away included; 'append' is history.
      if (!live() || type !== 'notify') return;
      const sorted = [...list].sort((a, b) => timestampOf(a) - timestampOf(b));
      void track(received(chip.id, sorted));
    });

    sock.ev.on('messages.update', (updates) => {
      if (!live()) return;
      for (const { key, update } of updates) {
        if (key.fromMe) {
          const receipt = receiptOf(update.status);
          if (receipt && key.id) void track(deps.sink.receipt(chip.id, key.id, receipt));
          continue;
        }
        const action = readUpdate(key, update);
        if (action) void track(inOrder(chip.id, () => apply(chip.id, action, null)));
      }
    });

    sock.ev.on('message-receipt.update', (updates) => {
      if (!live()) return;
      for (const { key, receipt } of updates) {
        if (!key.fromMe || !key.id) continue;
        const status =
          receipt.readTimestamp || receipt.playedTimestamp
            ? 'read'
            : receipt.receiptTimestamp
              ? 'delivered'
              : null;
        if (status) void track(deps.sink.receipt(chip.id, key.id, status));
      }
    });
    return { settled };
  }

  async function reconnect(chipId: string) {
    if (stopping) return;
    const chip = await channelChipsRepo.byId(svc().db, chipId);
    if (!chip || chip.filed) return;
    if (!(await baileysRepo.acquireLease(svc().db, chipId, processId, leaseMs()))) {
      watchForTakeover(chip);
      return;
    }
    await openSocket(chip);
  }

  function inOrder(chipId: string, fn: () => Promise<void>) {
    const state = stateOf(chipId);
    const run = state.inboundChain
      .then(fn)
      .catch((err: unknown) => svc().log.error({ err, chipId }, 'baileys: inbound message not handled'));
    state.inboundChain = run;
    return run;
  }

  /** Keeps the messages first (channel_inbox), then handles them one by one. */
  async function received(chipId: string, list: WAMessage[]) {
    const db = svc().db;
    const base = Date.now();
    const rows: { id: string; message: WAMessage }[] = [];
    for (const [i, message] of list.entries()) {
      if (!message.key?.id || message.key.fromMe) continue;
      const id = newId();
      // Distinct times keep WhatsApp's order for a replay after a crash.
      await channelInboxRepo.store(
        db,
        id,
        'baileys',
        { chipId, message: toJson(message) },
        new Date(base + i),
      );
      rows.push({ id, message });
    }
    for (const row of rows) {
      await inOrder(chipId, async () => {
        await handle(chipId, row.message);
        await channelInboxRepo.markProcessed(svc().db, row.id);
      });
    }
  }

  async function handle(chipId: string, message: WAMessage) {
    const sock = stateOf(chipId).session?.sock ?? null;
    const phone = await phoneOfKey(message.key, async (lid) => (sock ? sock.phoneOfLid(lid) : null));
    const action = readMessage(message, phone);
    if (action) await apply(chipId, action, message);
  }

  async function apply(chipId: string, action: InboundAction, message: WAMessage | null) {
    if (action.kind === 'edit')
      return deps.sink.change(chipId, action.platformMessageId, { text: action.text });
    if (action.kind === 'delete')
      return deps.sink.change(chipId, action.platformMessageId, { deleted: true });
    const { inbound, media } = action;
    if (media && message) {
      const max = config().BAILEYS_MEDIA_MAX_MB;
      if (media.size > max * 1024 * 1024) {
        const notice = baileysTexts.mediaTooLarge(max);
        return deps.sink.inbound(chipId, {
          ...inbound,
          type: 'text',
          text: media.caption ? `${notice}\n${media.caption}` : notice,
        });
      }
      const sock = stateOf(chipId).session?.sock;
      try {
        if (!sock) throw new Error('no socket for this chip in this process');
        const buffer = await sock.downloadMedia(message);
        return deps.sink.inbound(chipId, {
          ...inbound,
          media: { buffer, mime: media.mime, ...(media.fileName && { fileName: media.fileName }) },
          ...(media.voice && { voice: true }),
        });
      } catch (err) {
        svc().log.warn({ err, chipId, id: inbound.platformMessageId }, 'baileys: media download failed');
        // The retry is queued before the notice is stored (as for the Cloud API): never a notice without it.
        await queueBaileysMediaDownload(svc(), {
          chipId,
          platformMessageId: inbound.platformMessageId,
          message: toJson(message),
          attempt: 1,
        });
        const notice = texts.cloudApiMediaUnavailable;
        return deps.sink.inbound(chipId, {
          ...inbound,
          type: 'text',
          text: media.caption ? `${notice}\n${media.caption}` : notice,
        });
      }
    }
    await deps.sink.inbound(chipId, inbound);
  }

  function liveSession(chip: ChipRow) {
    const session = stateOf(chip.id).session;
    if (!session?.open) throw new ChannelError(texts.chipDisconnected);
    return session;
  }

  /** Waits up to `ms` for the chip's socket to be open again (a close mid-send reconnects). */
  function waitOpen(chipId: string, ms: number) {
    return new Promise<Session | null>((resolve) => {
      const state = stateOf(chipId);
      const check = () => (state.session?.open ? state.session : null);
      const ready = check();
      if (ready) return resolve(ready);
      const timer = setTimeout(() => resolve(check()), ms);
      const poll = setInterval(() => {
        const s = check();
        if (s) {
          clearTimeout(timer);
          clearInterval(poll);
          resolve(s);
        }
      }, 50);
      setTimeout(() => clearInterval(poll), ms + 10);
    });
  }

  async function contentOf(chip: ChipRow, jid: string, content: OutboundContent) {
    let payload: AnyMessageContent;
    let replyTo: string | null | undefined = null;
    if (content.type === 'text') {
      payload = { text: content.text };
      replyTo = content.replyTo;
    } else if (content.type === 'interactive') {
      // Unofficial numbers have no buttons or lists that reliably show: the menu goes as numbered text.
      payload = { text: content.text };
    } else if (content.type === 'template') {
      payload = { text: content.preview };
    } else {
      const max = config().BAILEYS_MEDIA_MAX_MB;
      // The size first (a stat, a HEAD): a file over the limit is never read.
      const size = await svc().media.size(content.url);
      if (size === null) throw new ChannelError(texts.mediaNotFound);
      if (size > max * 1024 * 1024) throw new ChannelError(texts.mediaTooLarge(max));
      const file = await svc().media.read(content.url);
      if (!file) throw new ChannelError(texts.mediaNotFound);
      const caption = content.caption ? { caption: content.caption } : {};
      replyTo = content.replyTo;
      payload =
        content.type === 'image'
          ? { image: file, mimetype: content.mime, ...caption }
          : content.type === 'video'
            ? { video: file, mimetype: content.mime, ...caption }
            : content.type === 'audio'
              ? // A voice note goes as push-to-talk in Ogg/Opus: the customer's app shows it as recorded.
                await audioPayload(file, content.mime, content.voice === true)
              : { document: file, mimetype: content.mime, fileName: content.fileName, ...caption };
    }
    let quoted: WAMessage | undefined;
    if (replyTo) {
      const row = await baileysRepo.message(svc().db, chip.id, replyTo);
      quoted = {
        key: { remoteJid: jid, id: replyTo, fromMe: row ? row.origin !== 'customer' : false },
        message: { conversation: row?.message ?? '' },
      };
    }
    return { payload, quoted };
  }

  const adapter: ChannelAdapter = {
    provider: 'baileys',
    async connect(chip) {
      const state = stateOf(chip.id);
      if (state.session && !state.session.ended) return; // already connecting or open here
      if (state.opening) return state.opening;
      state.opening = (async () => {
        clearTimeout(state.reconnectTimer);
        state.attempt = 0;
        if (!(await baileysRepo.acquireLease(svc().db, chip.id, processId, leaseMs()))) {
          throw new ChannelError(baileysTexts.heldElsewhere);
        }
        const { settled } = await openSocket(chip);
        // The answer then carries the QR code or the new status (WhatsApp answers within seconds).
        await Promise.race([settled, sleep(CONNECT_ANSWER_MS)]);
      })().finally(() => {
        state.opening = undefined;
      });
      return state.opening;
    },
    async disconnect(chip) {
      // The session is kept: Conectar resumes it without a new QR.
      await endSession(chip.id, true);
      await deps.sink.status(chip.id, 'close');
    },
    async reset(chip) {
      const session = stateOf(chip.id).session;
      if (session?.open) {
        // Tells WhatsApp too, so the phone's list of connected devices drops this one.
        await session.sock.logout().catch(() => undefined);
      }
      await endSession(chip.id, true);
      await baileysRepo.clearSession(svc().db, chip.id);
      await deps.sink.status(chip.id, 'close');
    },
    async send(chip, to, content, opts) {
      const state = stateOf(chip.id);
      const jid = jidOf(to);
      // One send of a chip at a time, at least BAILEYS_SEND_GAP_MS apart, after 'digitando…' for a text.
      const run = state.sendChain.then(async () => {
        // The session dropped and is reconnecting by itself: the send waits for it (delivery.ts).
        if (!state.session?.open && state.reconnectTimer && !stopping)
          throw new ChannelError(texts.chipDisconnected, Boolean(opts?.key));
        let session = liveSession(chip);
        const { payload, quoted } = await contentOf(chip, jid, content);
        const gap = config().BAILEYS_SEND_GAP_MS - (Date.now() - state.lastSendAt);
        if (gap > 0) await sleep(gap);
        const typingMs = config().BAILEYS_TYPING_MS;
        if (typingMs > 0 && 'text' in payload) {
          await session.sock.sendPresenceUpdate('composing', jid).catch(() => undefined);
          await sleep(typingMs);
          await session.sock.sendPresenceUpdate('paused', jid).catch(() => undefined);
        }
        // Our id, fixed before the first try: a retry after a close carries the same one, and WhatsApp
        // shows a message id once, so the customer never sees it twice.
        // Made from the send's key when there is one: the same message id after a reconnect, or a resume.
        const messageId = opts?.key
          ? messageIdOf(opts.key)
          : baileys().generateMessageIDV2(session.sock.user?.id);
        const options = { messageId, ...(quoted && { quoted }) };
        try {
          const sent = await session.sock.sendMessage(jid, payload, options);
          return { platformMessageId: sent?.key.id ?? messageId };
        } catch (err) {
          if (err instanceof ChannelError) throw err;
          svc().log.warn({ err, chipId: chip.id }, 'baileys: send failed, retrying once after reconnect');
          const again = await waitOpen(chip.id, 15_000);
          // Still away: with a fixed id the send may wait and go later, once.
          if (!again) throw new ChannelError(texts.chipDisconnected, Boolean(opts?.key));
          session = again;
          try {
            const sent = await session.sock.sendMessage(jid, payload, options);
            return { platformMessageId: sent?.key.id ?? messageId };
          } catch (err2) {
            svc().log.error({ err: err2, chipId: chip.id }, 'baileys: send failed twice');
            throw new ChannelError(texts.providerFailed);
          }
        } finally {
          state.lastSendAt = Date.now();
        }
      });
      state.sendChain = run.catch(() => undefined);
      return run;
    },
    async typing(chip, to) {
      const session = stateOf(chip.id).session;
      if (session?.open) await session.sock.sendPresenceUpdate('composing', jidOf(to));
    },
    async checkPhone(chip, phone) {
      const session = liveSession(chip);
      const normalized = normalizePhone(phone);
      if (!normalized) return { exists: false, id: null };
      const [found] = (await session.sock.onWhatsApp(jidOf(normalized))) ?? [];
      return found?.exists
        ? { exists: true, id: found.jid.split('@')[0] ?? normalized }
        : { exists: false, id: null };
    },
    async deleteMessage(chip, to, platformMessageId) {
      const session = liveSession(chip);
      const jid = jidOf(to);
      await session.sock.sendMessage(jid, {
        delete: { remoteJid: jid, fromMe: true, id: platformMessageId },
      });
    },
    async start(chips) {
      // Saved sessions of chips that were connected resume without a QR; the inbox left by a crash first.
      const db = svc().db;
      const left = await channelInboxRepo.unprocessed(db, 'baileys');
      if (left.length) await loadBaileys();
      for (const row of left) {
        const body = row.body as { chipId?: string; message?: unknown };
        if (!body.chipId || !body.message) continue;
        const chipId = body.chipId;
        void track(
          inOrder(chipId, async () => {
            await handle(chipId, fromJson(body.message));
            await channelInboxRepo.markProcessed(svc().db, row.id);
          }),
        );
      }
      for (const chip of chips) {
        if (chip.status !== 'open' && chip.status !== 'connecting') continue;
        if (!(await baileysRepo.hasSession(db, chip.id))) {
          await deps.sink.status(chip.id, 'close');
          continue;
        }
        if (await baileysRepo.acquireLease(db, chip.id, processId, leaseMs())) await openSocket(chip);
        else watchForTakeover(chip);
      }
    },
    async stop() {
      stopping = true;
      for (const chipId of [...states.keys()]) await endSession(chipId, true);
      await idle();
    },
  };

  async function idle() {
    while (pending.size) await Promise.allSettled([...pending]);
  }

  return {
    adapter,
    processId,
    idle,
    socketOf: (chipId) => stateOf(chipId).session?.sock ?? null,
    abandon(chipId) {
      const state = stateOf(chipId);
      clearTimers(state);
      if (state.session) state.session.ended = true;
      state.session = undefined;
    },
    async pairingCode(chip, rawPhone) {
      if (chip.provider !== 'baileys') throw new AppError(baileysTexts.notQrChip);
      const phone = normalizePhone(rawPhone);
      if (!phone) throw new AppError(baileysTexts.pairingPhoneInvalid);
      await adapter.connect(chip);
      const session = stateOf(chip.id).session;
      if (!session) throw new AppError(baileysTexts.pairingUnavailable);
      // WhatsApp takes the request once the socket is ready, that is when it offers its first QR code.
      for (let i = 0; i < 100 && !session.ended; i++) {
        try {
          return await session.sock.requestPairingCode(phone);
        } catch {
          await sleep(100);
        }
      }
      throw new AppError(baileysTexts.pairingUnavailable);
    },
  };
}
