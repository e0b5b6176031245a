// What a Baileys message means for us: a customer's message for the pipeline, an edit or a delete of one
// already stored, or nothing (groups, status broadcasts, our own echoes, protocol chatter). Phone identity:
// WhatsApp names more and more people by an @lid address; we always key a person by the phone number
// (the key's remoteJidAlt, or the session's lid→phone mapping), so one person stays one contact.
import type { proto, WAMessage, WAMessageKey } from '@whiskeysockets/baileys';
import { messages as texts } from '../../../shared/messages';
import type { InboundMessage } from '../adapter';
import { baileys } from './library';

export type MediaKind = 'image' | 'audio' | 'video' | 'document';

/** A media to download before (or, after a failure, after) the message is stored. */
export interface PendingMedia {
  kind: MediaKind;
  caption: string;
  mime: string;
  fileName?: string;
  voice?: boolean;
  /** Bytes as WhatsApp announces them (fileLength), 0 when unknown. */
  size: number;
}

export type InboundAction =
  | { kind: 'message'; inbound: InboundMessage; media?: PendingMedia }
  | { kind: 'edit'; platformMessageId: string; text: string }
  | { kind: 'delete'; platformMessageId: string };

/** Finds the phone number of an @lid address (Baileys' lidMapping), or null when the session does not know it. */
export type LidResolver = (lidJid: string) => Promise<string | null>;

const digitsOf = (jid: string | null | undefined) =>
  baileys()
    .jidDecode(jid ?? undefined)
    ?.user?.replace(/\D/g, '') ?? '';

/** Chats we do not serve: groups, broadcast lists and status, channels (newsletters). */
export function ignoredChat(jid: string | null | undefined) {
  if (!jid) return true;
  const { isJidGroup, isJidBroadcast, isJidNewsletter } = baileys();
  return Boolean(
    isJidGroup(jid) || isJidBroadcast(jid) || isJidNewsletter(jid) || jid === 'status@broadcast',
  );
}

/** The customer's phone number (digits) for a message key, through the lid mapping when needed. */
export async function phoneOfKey(key: WAMessageKey, resolveLid: LidResolver): Promise<string | null> {
  const jid = key.remoteJid ?? '';
  if (!baileys().isLidUser(jid)) return digitsOf(jid) || null;
  if (key.remoteJidAlt && !baileys().isLidUser(key.remoteJidAlt)) return digitsOf(key.remoteJidAlt) || null;
  const pn = await resolveLid(jid);
  return pn ? digitsOf(pn) || null : null;
}

const toNumber = (value: unknown) => {
  if (value === null || value === undefined) return 0;
  const n =
    typeof value === 'object' && 'toNumber' in (value as object)
      ? (value as { toNumber(): number }).toNumber()
      : Number(value);
  return Number.isFinite(n) ? n : 0;
};

export const timestampOf = (m: WAMessage) => toNumber(m.messageTimestamp);

function textOf(content: proto.IMessage | undefined): string {
  if (!content) return '';
  return content.conversation ?? content.extendedTextMessage?.text ?? '';
}

function contactText(cards: { displayName?: string | null; vcard?: string | null }[]) {
  return cards
    .map((c) => {
      // Each TEL line: its WhatsApp id (waid=) when the card has one, else the number as written.
      const phones = (c.vcard ?? '')
        .split(/\r?\n/)
        .filter((line) => /^(item\d+\.)?TEL/i.test(line))
        .map((line) => /waid=(\d+)/.exec(line)?.[1] ?? line.slice(line.lastIndexOf(':') + 1).trim())
        .filter(Boolean);
      return [c.displayName ?? '', [...new Set(phones)].join(', ')].filter(Boolean).join(': ');
    })
    .filter(Boolean)
    .join('\n');
}

/**
 * Reads one upserted message. `phone` is the customer's number (phoneOfKey); null when it could not be known,
 * then the lid's digits stand in (the mapping usually arrives with the message; see README).
 */
export function readMessage(m: WAMessage, phone: string | null): InboundAction | null {
  const key = m.key;
  if (!key?.id || key.fromMe || ignoredChat(key.remoteJid)) return null;
  const content = baileys().normalizeMessageContent(m.message);
  if (!content) return null;
  const type = baileys().getContentType(content);
  if (!type) return null;

  if (type === 'protocolMessage') {
    const p = content.protocolMessage;
    const target = p?.key?.id;
    if (!p || !target) return null;
    if (p.type === baileys().proto.Message.ProtocolMessage.Type.REVOKE)
      return { kind: 'delete', platformMessageId: target };
    if (p.type === baileys().proto.Message.ProtocolMessage.Type.MESSAGE_EDIT) {
      const edited = baileys().normalizeMessageContent(p.editedMessage);
      const text = textOf(edited) || captionOf(edited);
      return text ? { kind: 'edit', platformMessageId: target, text } : null;
    }
    return null;
  }
  // Keys, history and app-state notices, poll votes' secrets…: nothing a person wrote.
  if (type === 'senderKeyDistributionMessage' || type === 'messageContextInfo') return null;

  const seconds = timestampOf(m);
  const inner = (content as Record<string, { contextInfo?: proto.IContextInfo | null } | null | undefined>)[
    type
  ];
  const replyTo = inner?.contextInfo?.stanzaId ?? undefined;
  const base: Omit<InboundMessage, 'type' | 'text'> = {
    platformMessageId: key.id,
    from: phone ?? digitsOf(key.remoteJid),
    ...(m.pushName && { name: m.pushName }),
    ...(replyTo && { replyTo }),
    ...(seconds > 0 && { timestamp: new Date(seconds * 1000) }),
  };
  const text = (value: string): InboundAction => ({
    kind: 'message',
    inbound: { ...base, type: 'text', text: value },
  });
  const media = (kind: MediaKind, m2: PendingMedia): InboundAction => ({
    kind: 'message',
    inbound: { ...base, type: kind, text: m2.caption },
    media: m2,
  });

  switch (type) {
    case 'conversation':
    case 'extendedTextMessage':
      return text(textOf(content));
    case 'imageMessage': {
      const i = content.imageMessage ?? {};
      return media('image', {
        kind: 'image',
        caption: i.caption ?? '',
        mime: i.mimetype ?? 'image/jpeg',
        size: toNumber(i.fileLength),
      });
    }
    case 'stickerMessage': {
      const s = content.stickerMessage ?? {};
      return media('image', {
        kind: 'image',
        caption: '',
        mime: s.mimetype ?? 'image/webp',
        size: toNumber(s.fileLength),
      });
    }
    case 'videoMessage':
    case 'ptvMessage': {
      const v = content.videoMessage ?? content.ptvMessage ?? {};
      return media('video', {
        kind: 'video',
        caption: v.caption ?? '',
        mime: v.mimetype ?? 'video/mp4',
        size: toNumber(v.fileLength),
      });
    }
    case 'audioMessage': {
      const a = content.audioMessage ?? {};
      return media('audio', {
        kind: 'audio',
        caption: '',
        mime: a.mimetype ?? 'audio/ogg',
        size: toNumber(a.fileLength),
        ...(a.ptt && { voice: true }),
      });
    }
    case 'documentMessage':
    case 'documentWithCaptionMessage': {
      const d = content.documentMessage ?? content.documentWithCaptionMessage?.message?.documentMessage;
      if (!d) break;
      return media('document', {
        kind: 'document',
        caption: d.caption ?? '',
        mime: d.mimetype ?? 'application/octet-stream',
        size: toNumber(d.fileLength),
        ...(d.fileName && { fileName: d.fileName }),
      });
    }
    case 'locationMessage':
    case 'liveLocationMessage': {
      const l = content.locationMessage ?? content.liveLocationMessage;
      if (!l) break;
      const place = ('name' in l ? l.name : null) ?? ('address' in l ? l.address : null) ?? '';
      return {
        kind: 'message',
        inbound: {
          ...base,
          type: 'location',
          text: [('name' in l && l.name) || '', ('address' in l && l.address) || '']
            .filter(Boolean)
            .join('\n'),
          location: {
            latitude: l.degreesLatitude ?? 0,
            longitude: l.degreesLongitude ?? 0,
            ...(place && { name: place }),
          },
        },
      };
    }
    case 'contactMessage':
      return {
        kind: 'message',
        inbound: { ...base, type: 'contact', text: contactText([content.contactMessage ?? {}]) },
      };
    case 'contactsArrayMessage':
      return {
        kind: 'message',
        inbound: {
          ...base,
          type: 'contact',
          text: contactText(content.contactsArrayMessage?.contacts ?? []),
        },
      };
    case 'reactionMessage': {
      // As for the Cloud API: a short text quoting the message reacted to; a removed reaction stores nothing.
      const r = content.reactionMessage;
      if (!r?.text || !r.key?.id) return null;
      return {
        kind: 'message',
        inbound: { ...base, type: 'text', text: texts.cloudApiReaction(r.text), replyTo: r.key.id },
      };
    }
    case 'buttonsResponseMessage': {
      const b = content.buttonsResponseMessage;
      const title = b?.selectedDisplayText ?? '';
      if (title)
        return {
          kind: 'message',
          inbound: {
            ...base,
            type: 'text',
            text: title,
            ...(b?.selectedButtonId && { choice: { id: b.selectedButtonId, title } }),
          },
        };
      break;
    }
    case 'listResponseMessage': {
      const l = content.listResponseMessage;
      const title = l?.title ?? '';
      const id = l?.singleSelectReply?.selectedRowId;
      if (title)
        return {
          kind: 'message',
          inbound: { ...base, type: 'text', text: title, ...(id && { choice: { id, title } }) },
        };
      break;
    }
  }
  return text(texts.cloudApiUnsupportedMessage);
}

function captionOf(content: proto.IMessage | undefined) {
  return (
    content?.imageMessage?.caption ??
    content?.videoMessage?.caption ??
    content?.documentMessage?.caption ??
    ''
  );
}

/** messages.update: an edit or a delete-for-everyone of a customer's message. */
export function readUpdate(key: WAMessageKey, update: Partial<WAMessage>): InboundAction | null {
  if (!key.id || key.fromMe || ignoredChat(key.remoteJid)) return null;
  if (update.messageStubType === baileys().proto.WebMessageInfo.StubType.REVOKE) {
    return { kind: 'delete', platformMessageId: key.id };
  }
  const edited = update.message?.editedMessage?.message;
  if (edited) {
    const inner = baileys().normalizeMessageContent(edited);
    const value =
      textOf(inner) ||
      captionOf(inner) ||
      textOf(baileys().normalizeMessageContent(inner?.protocolMessage?.editedMessage));
    if (value) return { kind: 'edit', platformMessageId: key.id, text: value };
  }
  return null;
}

/** Our send's status as WhatsApp reports it (messages.update): 3 delivered, 4 read (5 played counts as read). */
export function receiptOf(status: number | null | undefined): 'delivered' | 'read' | null {
  const { Status } = baileys().proto.WebMessageInfo;
  if (status === Status.DELIVERY_ACK) return 'delivered';
  if (status === Status.READ || status === Status.PLAYED) return 'read';
  return null;
}

/** A WAMessage as JSON that keeps its bytes (media keys), for channel_inbox and jobs; and back. */
export const toJson = (m: WAMessage) =>
  JSON.parse(JSON.stringify(m, baileys().BufferJSON.replacer)) as unknown;
export const fromJson = (body: unknown) =>
  JSON.parse(JSON.stringify(body), baileys().BufferJSON.reviver) as WAMessage;
