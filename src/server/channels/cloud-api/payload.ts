// The webhook notification of the Cloud API (the subset we read) and how a customer's message in it becomes
// our InboundMessage. Each message and status is parsed on its own, so one odd item never loses the others.
import { z } from 'zod';
import type { InteractiveMenu } from '../../../shared/contract/common';
import { messages as texts } from '../../../shared/messages';
import { INTERACTIVE_LIMITS } from '../../../shared/rules/flow';
import type { InboundMessage } from '../adapter';

const media = z.object({
  id: z.string(),
  mime_type: z.string().optional(),
  caption: z.string().optional(),
  filename: z.string().optional(),
  /** Audio: recorded in the app (a voice note), not a file. */
  voice: z.boolean().optional(),
});

export const webhookMessage = z.object({
  id: z.string().min(1),
  from: z.string().min(1),
  timestamp: z.string().optional(),
  type: z.string(),
  context: z.object({ id: z.string().optional() }).optional(),
  text: z.object({ body: z.string() }).optional(),
  image: media.optional(),
  audio: media.optional(),
  voice: media.optional(),
  video: media.optional(),
  document: media.optional(),
  sticker: media.optional(),
  location: z
    .object({
      latitude: z.coerce.number(),
      longitude: z.coerce.number(),
      name: z.string().optional(),
      address: z.string().optional(),
    })
    .optional(),
  contacts: z
    .array(
      z.object({
        name: z
          .object({ formatted_name: z.string().optional(), first_name: z.string().optional() })
          .optional(),
        phones: z.array(z.object({ phone: z.string().optional(), wa_id: z.string().optional() })).optional(),
      }),
    )
    .optional(),
  interactive: z
    .object({
      type: z.string(),
      button_reply: z.object({ id: z.string().optional(), title: z.string() }).optional(),
      list_reply: z
        .object({ id: z.string().optional(), title: z.string(), description: z.string().optional() })
        .optional(),
      nfm_reply: z.object({ body: z.string().optional() }).optional(),
    })
    .optional(),
  /** A template's quick-reply button: `payload` is what the template set for it. */
  button: z.object({ text: z.string(), payload: z.string().optional() }).optional(),
  reaction: z.object({ message_id: z.string(), emoji: z.string().optional() }).optional(),
});
export type WebhookMessage = z.infer<typeof webhookMessage>;

export const webhookStatus = z.object({
  id: z.string().min(1),
  status: z.string(),
  errors: z.array(z.object({ code: z.number().optional() })).optional(),
});

export const webhookNotification = z.object({
  entry: z
    .array(
      z.object({
        /** The WABA's id (the account-level fields, such as message_template_status_update, need it). */
        id: z.coerce.string().optional(),
        changes: z
          .array(
            z.object({
              field: z.string().optional(),
              value: z
                .object({
                  metadata: z.object({ phone_number_id: z.string() }).optional(),
                  contacts: z
                    .array(
                      z.object({
                        wa_id: z.string().optional(),
                        profile: z.object({ name: z.string().optional() }).optional(),
                      }),
                    )
                    .optional(),
                  messages: z.array(z.unknown()).optional(),
                  statuses: z.array(z.unknown()).optional(),
                  // field message_template_status_update (entry.id is the WABA's id)
                  event: z.string().optional(),
                  message_template_name: z.string().optional(),
                  message_template_language: z.string().optional(),
                  reason: z.string().nullish(),
                })
                .optional(),
            }),
          )
          .default([]),
      }),
    )
    .default([]),
});

export type MediaKind = 'image' | 'audio' | 'video' | 'document';
/** Downloads a received media by its id; throws ChannelError when it can't. */
export type MediaFetcher = (id: string) => Promise<{ buffer: Buffer; mime: string }>;

/** The media object of a message and how we store it: stickers are images, voice notes are audio. */
export function mediaOf(
  m: WebhookMessage,
): { kind: MediaKind; media: z.infer<typeof media>; voice?: boolean } | null {
  switch (m.type) {
    case 'image':
      return m.image ? { kind: 'image', media: m.image } : null;
    case 'sticker':
      return m.sticker ? { kind: 'image', media: m.sticker } : null;
    case 'audio':
    case 'voice': {
      const audio = m.audio ?? m.voice;
      return audio
        ? { kind: 'audio', media: audio, voice: m.type === 'voice' || audio.voice === true }
        : null;
    }
    case 'video':
      return m.video ? { kind: 'video', media: m.video } : null;
    case 'document':
      return m.document ? { kind: 'document', media: m.document } : null;
  }
  return null;
}

function contactsText(list: NonNullable<WebhookMessage['contacts']>): string {
  return list
    .map((c) => {
      const name = c.name?.formatted_name || c.name?.first_name || '';
      const phones = (c.phones ?? []).map((p) => p.phone || p.wa_id || '').filter(Boolean);
      return [name, phones.join(', ')].filter(Boolean).join(': ');
    })
    .filter(Boolean)
    .join('\n');
}

/**
 * A customer's message as our pipeline takes it, or null when there is nothing to store (a removed reaction).
 * A media that can't be downloaded still arrives, as a text saying so, so the team knows it was sent.
 */
export async function toInbound(
  m: WebhookMessage,
  name: string | undefined,
  download: MediaFetcher,
): Promise<InboundMessage | null> {
  const seconds = Number(m.timestamp);
  const base = {
    platformMessageId: m.id,
    from: m.from,
    ...(name && { name }),
    ...(m.context?.id && { replyTo: m.context.id }),
    ...(Number.isFinite(seconds) && seconds > 0 && { timestamp: new Date(seconds * 1000) }),
  };
  const text = (value: string): InboundMessage => ({ ...base, type: 'text', text: value });

  const found = mediaOf(m);
  if (found) {
    const caption = found.media.caption ?? '';
    try {
      const file = await download(found.media.id);
      return {
        ...base,
        type: found.kind,
        text: caption,
        media: {
          buffer: file.buffer,
          mime: file.mime,
          ...(found.media.filename && { fileName: found.media.filename }),
        },
        ...(found.voice && { voice: true }),
      };
    } catch {
      return text(caption ? `${texts.cloudApiMediaUnavailable}\n${caption}` : texts.cloudApiMediaUnavailable);
    }
  }

  switch (m.type) {
    case 'text':
      if (m.text) return text(m.text.body);
      break;
    case 'location':
      if (m.location) {
        const { latitude, longitude, name: place, address } = m.location;
        return {
          ...base,
          type: 'location',
          text: [place, address].filter(Boolean).join('\n'),
          location: { latitude, longitude, ...((place || address) && { name: place || address }) },
        };
      }
      break;
    case 'contacts':
      if (m.contacts?.length) return { ...base, type: 'contact', text: contactsText(m.contacts) };
      break;
    case 'interactive': {
      // A tap on a reply button or a list row: the title is what the customer sees they sent, the id names
      // the option a flow's menu offered.
      const reply = m.interactive?.button_reply ?? m.interactive?.list_reply;
      if (reply?.title) {
        return { ...text(reply.title), ...(reply.id && { choice: { id: reply.id, title: reply.title } }) };
      }
      if (m.interactive?.nfm_reply) return text(m.interactive.nfm_reply.body || texts.cloudApiFormAnswered);
      break;
    }
    case 'button':
      // A template's quick reply: its payload is the option's id when the template set one.
      if (m.button) {
        const { text: title, payload } = m.button;
        return { ...text(title), ...(payload && { choice: { id: payload, title } }) };
      }
      break;
    case 'reaction':
      // Kept as a short text quoting the message it reacts to: the team sees the customer's answer (a 👍 often
      // means "ok"). A removed reaction comes with no emoji and there is nothing to store.
      if (!m.reaction?.emoji) return null;
      return { ...text(texts.cloudApiReaction(m.reaction.emoji)), replyTo: m.reaction.message_id };
  }
  // 'unsupported', orders, polls, and any type newer than this code.
  return text(texts.cloudApiUnsupportedMessage);
}

const cut = (value: string, max: number) => (value.length > max ? value.slice(0, max) : value);

/**
 * A flow's menu as the Cloud API's interactive message (reference: 'Interactive reply buttons messages',
 * 'Interactive list messages'): reply buttons (id and title each), or a list behind a button with one section
 * of rows. The editor keeps within WhatsApp's limits; they are cut here too, so an older flow is never refused.
 */
export function interactivePayload(body: string, menu: InteractiveMenu) {
  const L = INTERACTIVE_LIMITS;
  if (menu.kind === 'buttons') {
    return {
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text: cut(body, L.body) },
        action: {
          buttons: menu.options.slice(0, L.quickReplies).map((o) => ({
            type: 'reply',
            reply: { id: o.id, title: cut(o.title, L.buttonTitle) },
          })),
        },
      },
    };
  }
  return {
    type: 'interactive',
    interactive: {
      type: 'list',
      body: { text: cut(body, L.body) },
      action: {
        button: cut(menu.button || texts.flowListButton, L.listButton),
        sections: [
          {
            rows: menu.options.slice(0, L.listRows).map((o) => ({
              id: o.id,
              title: cut(o.title, L.rowTitle),
              ...(o.description && { description: cut(o.description, L.rowDescription) }),
            })),
          },
        ],
      },
    },
  };
}
