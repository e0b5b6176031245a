// The simulator: a built-in channel whose "phone" is a web page (/simulador/<token>), so the whole product
// runs and is tested without WhatsApp. Connecting shows a QR code that encodes the page's link with a
// pairing code; opening that link "scans" it and the chip goes open. On the page one plays any customer:
// what they send enters the same pipeline as a real provider's messages, the business's replies arrive
// over the socket, and the page's delivered/read marks come back as receipts.
import { randomBytes } from 'node:crypto';
import type { SimulatorMessage } from '../../../shared/contract/chips';
import { simulatorRoom } from '../../../shared/contract/events';
import { newId } from '../../../shared/ids';
import { messages as texts } from '../../../shared/messages';
import { normalizePhone } from '../../../shared/phone';
import { numberedMenu } from '../../../shared/rules/menu';
import { systemActor } from '../../access';
import { channelChipsRepo } from '../../domains/chips/channel-chips.repo';
import { AppError } from '../../http/errors';
import type { Services } from '../../services';
import { type ChannelAdapter, ChannelError, type ChannelSink, type ChipRow } from '../adapter';
import type { SimulatorPage } from '../port';

interface Credentials {
  /** The page's link token: 256 random bits, base64url. */
  token?: string;
  /** The code of the QR waiting to be scanned. */
  pair?: string | null;
  /** Flows' menus go out as numbered text (a number without interactive messages); else buttons and lists. */
  numberedMenus?: boolean;
}

/** The page's calls (port.ts), the adapter, and the page's socket check. */
export interface SimulatorChannel extends SimulatorPage {
  adapter: ChannelAdapter;
  /** The socket room of a page, or null when the link is not valid. */
  authorize(token: string, phone: string): Promise<string | null>;
}

/**
 * The simulator's numbers without WhatsApp: Brazilian numbers whose subscriber part is all zeros after its
 * first digit (55 + area code + 9 0000-0000 or 3 000-0000, e.g. 5511900000000).
 */
export const SIMULATOR_NO_WHATSAPP = /^55\d{2}\d0{7,8}$/;

const randomToken = (bytes: number) => randomBytes(bytes).toString('base64url');
const textOnly = (text: string) =>
  ({ type: 'text', text, media_url: null, file_name: null, ptt: false }) as const;
const credentialsOf = (chip: ChipRow) => chip.credentials as Credentials;
/**
 * Whether flows' menus go out as WhatsApp's buttons and lists: official numbers have them; the simulator stands
 * in for both kinds of number, by its page's switch (buttons unless asked for the numbered text).
 */
const sendsInteractive = (chip: ChipRow) => chip.official || credentialsOf(chip).numberedMenus !== true;

/** The link a QR code encodes: absolute with PUBLIC_URL, otherwise a path the app completes with its origin. */
export const simulatorLink = (base: string, token: string, pair?: string) =>
  `${base}/simulador/${token}${pair ? `?pair=${pair}` : ''}`;

export function createSimulatorChannel(deps: {
  sink: ChannelSink;
  services: () => Services;
}): SimulatorChannel {
  const db = () => deps.services().db;

  const chipByToken = (token: string) => channelChipsRepo.bySimulatorToken(db(), token);

  async function requireChip(token: string) {
    const chip = await chipByToken(token);
    if (!chip) throw new AppError(texts.simulatorLinkInvalid, 404);
    return chip;
  }

  function customerPhone(raw: string) {
    const phone = normalizePhone(raw);
    if (!phone) throw new AppError(texts.invalidPhone);
    return phone;
  }

  const setCredentials = (chip: ChipRow, credentials: Credentials) =>
    channelChipsRepo.setCredentials(db(), systemActor(chip.accountId, 'simulator'), chip.id, {
      ...credentials,
    });

  /** Tells every open page of this chip, whichever customer it plays, that the chip (dis)connected. */
  function notifyPages(chip: ChipRow, connected: boolean) {
    const io = deps.services().realtime.io;
    const prefix = `simulator_${chip.id}_`;
    const rooms = [...io.of('/').adapter.rooms.keys()].filter((room) => room.startsWith(prefix));
    if (rooms.length) io.to(rooms).emit('simulator', { type: 'chip', message: { connected } });
  }

  const adapter: ChannelAdapter = {
    provider: 'simulator',
    async connect(chip) {
      const credentials = credentialsOf(chip);
      const token = credentials.token ?? randomToken(32);
      const pair = randomToken(12);
      await setCredentials(chip, { ...credentials, token, pair });
      await deps.sink.qrcode(chip.id, simulatorLink(deps.services().config.serverAddress, token, pair));
    },
    async disconnect(chip) {
      await setCredentials(chip, { ...credentialsOf(chip), pair: null });
      await deps.sink.status(chip.id, 'close');
      notifyPages(chip, false);
    },
    async reset(chip) {
      // A new link is needed: every open simulator page of this chip stops working.
      notifyPages(chip, false);
      await setCredentials(chip, {});
      await deps.sink.status(chip.id, 'close');
    },
    async send(chip, to, content) {
      const token = credentialsOf(chip).token;
      if (!token || chip.status !== 'open') throw new ChannelError(texts.chipDisconnected);
      const id = `SIM${newId()}`;
      const base: Omit<SimulatorMessage, 'type' | 'text' | 'media_url' | 'file_name' | 'ptt'> = {
        id,
        from_me: true,
        location: null,
        status: 1,
        deleted: false,
        created: new Date().toISOString(),
      };
      const message: SimulatorMessage =
        content.type === 'text'
          ? { ...base, type: 'text', text: content.text, media_url: null, file_name: null, ptt: false }
          : content.type === 'interactive'
            ? sendsInteractive(chip)
              ? { ...base, ...textOnly(content.body), interactive: content.menu }
              : { ...base, ...textOnly(content.text) }
            : content.type === 'template'
              ? { ...base, ...textOnly(content.preview) }
              : {
                  ...base,
                  type: content.type,
                  text: content.caption ?? '',
                  media_url: content.url,
                  file_name: content.fileName,
                  ptt: content.type === 'audio' && content.voice === true,
                };
      deps.services().realtime.toSimulator(chip.id, to, { type: 'message', message });
      return { platformMessageId: id };
    },
    async typing(chip, to, seconds) {
      if (chip.status !== 'open') return;
      deps.services().realtime.toSimulator(chip.id, to, { type: 'typing', message: { seconds } });
    },
    async checkPhone(_chip, phone) {
      // Every valid number "has the app" in the simulator, but those of SIMULATOR_NO_WHATSAPP: tests (and
      // anyone trying campaigns) use them for a number without WhatsApp.
      const normalized = normalizePhone(phone);
      return {
        exists: normalized !== null && !SIMULATOR_NO_WHATSAPP.test(normalized),
        id: normalized,
      };
    },
    async deleteMessage(chip, to, platformMessageId) {
      deps
        .services()
        .realtime.toSimulator(chip.id, to, { type: 'deleted', message: { id: platformMessageId } });
    },
  };

  return {
    adapter,
    async open(token, pair) {
      const chip = await requireChip(token);
      const waiting = credentialsOf(chip).pair;
      const numbered_menus = !sendsInteractive(chip);
      if (pair && waiting && pair === waiting && chip.status !== 'open') {
        await setCredentials(chip, { ...credentialsOf(chip), token, pair: null });
        await deps.sink.status(chip.id, 'open');
        notifyPages(chip, true);
        return { chip_name: chip.name, connected: true, numbered_menus };
      }
      return { chip_name: chip.name, connected: chip.status === 'open', numbered_menus };
    },
    async setMenus(token, numbered) {
      const chip = await requireChip(token);
      await setCredentials(chip, { ...credentialsOf(chip), numberedMenus: numbered });
    },
    async messages(token, rawPhone) {
      const chip = await requireChip(token);
      const phone = customerPhone(rawPhone);
      const interactive = sendsInteractive(chip);
      const rows = await channelChipsRepo.phoneHistory(db(), chip, phone, [
        'text',
        'image',
        'audio',
        'video',
        'document',
        'location',
      ]);
      return rows.map((m) => ({
        id: m.platformMessageId ?? m.id,
        from_me: m.origin !== 'customer',
        type: m.type,
        // A menu as the phone shows it now: buttons under its text, or the numbered text.
        text: m.deleted
          ? ''
          : m.interactive && !interactive
            ? numberedMenu(m.message, m.interactive)
            : m.message,
        media_url: m.deleted ? null : m.mediaUrl,
        file_name: m.fileName,
        ptt: m.ptt,
        location: m.location ?? null,
        status: m.origin === 'customer' ? 1 : Math.max(m.status, 1),
        deleted: m.deleted,
        created: m.createdAt.toISOString(),
        interactive: interactive && !m.deleted ? (m.interactive ?? null) : null,
      }));
    },
    async send(input) {
      const chip = await requireChip(input.token);
      if (chip.status !== 'open') throw new AppError(texts.simulatorDisconnected);
      const phone = customerPhone(input.phone);
      const media = input.type !== 'text' && input.type !== 'location';
      if (media && !(input.media_url && deps.services().media.owns(input.media_url))) {
        throw new AppError(texts.mediaNotFound);
      }
      // A tap on an option sends its title, as WhatsApp shows the customer's answer.
      const text = input.choice ? input.choice.title : input.text;
      if (input.type === 'text' && !text.trim()) throw new AppError(texts.messageEmpty);
      if (input.type === 'location' && !input.location) throw new AppError(texts.requiredField);
      const platformMessageId = `SIMC${phone}${input.id}`;
      await deps.sink.inbound(chip, {
        platformMessageId,
        from: phone,
        name: input.name,
        type: input.type,
        text: input.type === 'location' ? (input.location?.name ?? '') : text,
        ...(media && input.media_url && { storedMedia: { url: input.media_url, fileName: input.file_name } }),
        ...(input.location && { location: input.location }),
        ...(input.choice && input.type === 'text' && { choice: input.choice }),
      });
      return {
        id: platformMessageId,
        from_me: false,
        type: input.type,
        text: input.type === 'location' ? (input.location?.name ?? '') : text,
        media_url: input.media_url ?? null,
        file_name: input.file_name ?? null,
        ptt: false,
        location: input.location ?? null,
        status: 1,
        deleted: false,
        created: new Date().toISOString(),
      };
    },
    async upload(token, file) {
      await requireChip(token);
      const media = deps.services().media;
      const kind = await media.classify(file.buffer, file.filename);
      if (!kind) throw new AppError(texts.mediaWrongType);
      const stored = await media.save(file.buffer, kind.ext, kind.mime);
      return { url: stored.url, mime: kind.mime, file_name: file.filename.slice(0, 200) || stored.name };
    },
    async mark(token, rawPhone, ids, status) {
      const chip = await requireChip(token);
      customerPhone(rawPhone);
      for (const id of ids) await deps.sink.receipt(chip.id, id, status === 4 ? 'read' : 'delivered');
    },
    async authorize(token, rawPhone) {
      const phone = normalizePhone(rawPhone);
      const chip = phone ? await chipByToken(token) : null;
      return chip && phone ? simulatorRoom(chip.id, phone) : null;
    },
  };
}
