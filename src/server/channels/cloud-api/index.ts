// WhatsApp Cloud API (official numbers): Meta's Graph API over HTTP. Support sets the chip's phone_number_id and
// WABA, registers the number, and the owner connects it; sends go to /{phone_number_id}/messages, and what
// customers send (and the statuses of our sends) arrives at the signed webhook (./webhook.ts).
import { randomInt } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { messages as texts } from '../../../shared/messages';
import { systemActor } from '../../access';
import { channelChipsRepo, channelInboxRepo } from '../../domains/chips/channel-chips.repo';
import type { Services } from '../../services';
import {
  type ChannelAdapter,
  ChannelError,
  type ChannelSink,
  type ChipRow,
  type ProviderTemplate,
} from '../adapter';
import { VOICE_NOTE_MIME, voiceNoteAsOpus } from '../voice-note';
import { createGraphClient } from './graph';
import { interactivePayload } from './payload';
import { processNotification, registerWebhookRoutes } from './webhook';

export interface CloudApiChannel {
  adapter: ChannelAdapter;
  /** GET/POST /webhooks/whatsapp: the verification challenge and the signed notifications. */
  registerRoutes(app: FastifyInstance): Promise<void>;
  /** Resolves once every notification received so far is processed (tests; shutdown). */
  idle(): Promise<void>;
}

interface Credentials {
  /** The number's two-step verification PIN, set by our first register call and reused after. */
  pin?: string;
}

export function createCloudApiChannel(deps: {
  sink: ChannelSink;
  services: () => Services;
}): CloudApiChannel {
  const graph = () => createGraphClient(deps.services().config, deps.services().log);
  const db = () => deps.services().db;
  const pending = new Set<Promise<void>>();

  const phoneNumberIdOf = (chip: ChipRow) => {
    if (!chip.phoneNumberId) throw new ChannelError(texts.chipNoPhoneNumberId);
    return chip.phoneNumberId;
  };

  const adapter: ChannelAdapter = {
    provider: 'cloud-api',
    async connect(chip) {
      const id = phoneNumberIdOf(chip);
      const g = graph();
      const info = await g.get<{
        display_phone_number?: string;
        quality_rating?: string;
        verified_name?: string;
      }>(`${id}?fields=display_phone_number,quality_rating,verified_name`);
      await channelChipsRepo.setPhoneInfo(db(), systemActor(chip.accountId, 'cloud-api'), chip.id, {
        displayPhoneNumber: info.display_phone_number ?? chip.displayPhoneNumber,
        phoneNumberQuality: info.quality_rating ?? null,
      });
      // Without the app subscribed to the WABA, Meta sends this number's webhooks nowhere.
      if (chip.waba) await g.post(`${encodeURIComponent(chip.waba)}/subscribed_apps`);
      await deps.sink.status(chip.id, 'open');
    },
    async disconnect(chip) {
      await deps.sink.status(chip.id, 'close');
    },
    async reset(chip) {
      // No QR session to forget: the number stays registered with Meta.
      await deps.sink.status(chip.id, 'close');
    },
    async register(chip, register, typedPin) {
      const id = phoneNumberIdOf(chip);
      if (!register) {
        await graph().post(`${id}/deregister`);
        return;
      }
      const credentials = chip.credentials as Credentials;
      if (typedPin) {
        // Support's PIN: kept only once Meta took it, so a wrong one never replaces the right one.
        await graph().post(`${id}/register`, { messaging_product: 'whatsapp', pin: typedPin });
        await channelChipsRepo.setCredentials(db(), systemActor(chip.accountId, 'cloud-api'), chip.id, {
          ...credentials,
          pin: typedPin,
        });
        return;
      }
      let pin = credentials.pin;
      if (!pin) {
        // Kept before the call: a retry after a timeout must send the PIN Meta may already have set.
        pin = String(randomInt(0, 1_000_000)).padStart(6, '0');
        await channelChipsRepo.setCredentials(db(), systemActor(chip.accountId, 'cloud-api'), chip.id, {
          ...credentials,
          pin,
        });
      }
      await graph().post(`${id}/register`, { messaging_product: 'whatsapp', pin });
    },
    async send(chip, to, content) {
      const id = phoneNumberIdOf(chip);
      const g = graph();
      let payload: Record<string, unknown>;
      if (content.type === 'text') {
        payload = { type: 'text', text: { body: content.text } };
      } else if (content.type === 'interactive') {
        payload = interactivePayload(content.body, content.menu);
      } else if (content.type === 'template') {
        payload = {
          type: 'template',
          template: {
            name: content.name,
            language: { code: content.language },
            components: content.components,
          },
        };
      } else {
        const { config, log, media } = deps.services();
        const bytes = await media.read(content.url);
        if (!bytes) throw new ChannelError(texts.mediaNotFound);
        // A recorded voice note goes as Ogg/Opus, which WhatsApp shows as a voice note (voice-note.ts).
        const opus =
          content.type === 'audio' && content.voice
            ? await voiceNoteAsOpus(config.FFMPEG_PATH, bytes, content.mime, log)
            : null;
        const file = opus
          ? {
              bytes: opus,
              mime: VOICE_NOTE_MIME,
              fileName: `${content.fileName.replace(/\.[^.]*$/, '')}.ogg`,
            }
          : { bytes, mime: content.mime, fileName: content.fileName };
        const mediaId = await g.upload(id, file);
        // Audio takes no caption on WhatsApp; documents keep their file name.
        const caption = content.type !== 'audio' && content.caption ? { caption: content.caption } : {};
        const filename = content.type === 'document' ? { filename: content.fileName } : {};
        // Cloud API's voice flag: the audio arrives as a voice note (microphone icon, auto download, transcript).
        const voice = content.type === 'audio' && content.voice ? { voice: true } : {};
        payload = { type: content.type, [content.type]: { id: mediaId, ...caption, ...filename, ...voice } };
      }
      const replyTo = content.type === 'template' || content.type === 'interactive' ? null : content.replyTo;
      const answer = await g.post<{ messages?: { id?: string }[] }>(`${id}/messages`, {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to,
        ...(replyTo && { context: { message_id: replyTo } }),
        ...payload,
      });
      const wamid = answer.messages?.[0]?.id;
      if (!wamid) throw new ChannelError(texts.providerFailed);
      return { platformMessageId: wamid };
    },
    async typing(chip, _to, _seconds, replyTo) {
      // Meta's typing indicator marks the customer's message read and shows 'digitando…' until the answer or
      // for 25 s; it needs that message's id.
      if (!replyTo) return;
      await graph().post(`${phoneNumberIdOf(chip)}/messages`, {
        messaging_product: 'whatsapp',
        status: 'read',
        message_id: replyTo,
        typing_indicator: { type: 'text' },
      });
    },
    async listTemplates(chip) {
      // get template messages by waba id (spec 2 §7): every page of the WABA's templates.
      if (!chip.waba) return [];
      const g = graph();
      const all: ProviderTemplate[] = [];
      let after: string | undefined;
      for (let page = 0; page < 20; page++) {
        const query = `fields=name,status,language,components&limit=100${after ? `&after=${encodeURIComponent(after)}` : ''}`;
        const answer = await g.get<{
          data?: ProviderTemplate[];
          paging?: { cursors?: { after?: string }; next?: string };
        }>(`${encodeURIComponent(chip.waba)}/message_templates?${query}`);
        all.push(...(answer.data ?? []));
        after = answer.paging?.next ? answer.paging.cursors?.after : undefined;
        if (!after) break;
      }
      return all;
    },
    async checkPhone(_chip, phone) {
      // The Cloud API dropped its contacts lookup: a number without WhatsApp shows up as a failed send (131026).
      return { exists: true, id: phone };
    },
    async deleteMessage() {
      // The Cloud API has no "delete for everyone": the message is only marked deleted on our side.
    },
    /** After a restart: the notifications stored but not yet handled. */
    async start() {
      const { db } = deps.services();
      const left = await channelInboxRepo.unprocessed(db, 'cloud-api');
      // One after another, in the order Meta sent them.
      let chain = Promise.resolve();
      for (const row of left) chain = chain.then(() => received(row.id, row.body, deps.services().log));
    },
    async stop() {
      await idle();
    },
  };

  async function idle() {
    while (pending.size) await Promise.allSettled([...pending]);
  }

  function received(inboxId: string, body: unknown, log: FastifyBaseLogger): Promise<void> {
    const services = deps.services();
    const run: Promise<void> = processNotification({ sink: deps.sink, services }, body)
      .then(() => channelInboxRepo.markProcessed(services.db, inboxId))
      .catch((err: unknown) => log.error({ err }, 'whatsapp webhook: notification not processed'))
      .finally(() => pending.delete(run));
    pending.add(run);
    return run;
  }

  return {
    adapter,
    registerRoutes: (app) => registerWebhookRoutes(app, { services: deps.services, received }),
    idle,
  };
}
