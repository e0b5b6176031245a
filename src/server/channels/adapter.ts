// The one interface every channel speaks (DESIGN.md "channels/"). The server asks an adapter to connect,
// send and check phones; the adapter reports back through the ChannelSink (QR codes, status, inbound
// messages, delivery receipts). The simulator, the WhatsApp Cloud API and Baileys (QR numbers: connect()
// starts a socket that emits qrcode() then status('open'); start() resumes saved sessions at boot) implement it.
import type { ChannelProvider, ChipStatus, MessageType } from '../../shared/constants';
import type { ChipRow } from '../db/rows';
import type { OutboundContent } from './content';

/** Defined in content.ts, which the schema imports (this file imports the schema for ChipRow). */
export type { ChipRow, OutboundContent };

/** A customer's message as the adapter read it, in the provider's terms. */
export interface InboundMessage {
  /** The provider's id of the message (a wamid): replays with the same id store nothing new. */
  platformMessageId: string;
  /** The customer's number as the provider gives it (wa_id, jid or digits). */
  from: string;
  /** The name the customer set on their profile. */
  name?: string;
  type: MessageType;
  text: string;
  media?: { buffer: Buffer; mime: string; fileName?: string };
  /** Audio recorded on the phone (a voice note), not a file. */
  voice?: boolean;
  /** A file already in our media store (the simulator uploads there first). */
  storedMedia?: { url: string; fileName?: string };
  location?: { latitude: number; longitude: number; name?: string };
  /** The provider's id of the message this one answers. */
  replyTo?: string;
  /** A tap on an option of a flow's menu (interactive reply): the option's id and title. */
  choice?: { id: string; title: string };
  timestamp?: Date;
}

/** A template message as the provider lists it (spec 2 §3 Template message). */
export interface ProviderTemplate {
  name: string;
  status: string;
  language: string;
  components: { type?: string; format?: string; text?: string; example?: unknown; buttons?: unknown[] }[];
}

export type ReceiptStatus = 'sent' | 'delivered' | 'read' | 'failed';

/** Where adapters report. Implemented by the message pipeline (src/server/channels/index.ts). */
export interface ChannelSink {
  qrcode(chipId: string, code: string): Promise<void>;
  /** `reason`: why the chip closed, in pt-BR, shown to the team (a logout on the phone, a ban). */
  status(chipId: string, status: ChipStatus, reason?: string): Promise<void>;
  /** `chip`: its id, or the row the channel just read it as (one read less on the inbound path). */
  inbound(chip: string | ChipRow, message: InboundMessage): Promise<void>;
  /** The customer edited (text) or deleted for everyone a message already stored. Repeating it changes nothing. */
  change(
    chipId: string,
    platformMessageId: string,
    change: { text: string } | { deleted: true },
  ): Promise<void>;
  receipt(chipId: string, platformMessageId: string, status: ReceiptStatus, reason?: string): Promise<void>;
}

/**
 * A provider refused or failed: `message` is the pt-BR reason stored on the message. `retryLater`: the provider
 * did not take the message and says (or its silence at connecting says) it may take it later: down for a
 * while, overloaded, rate-limited. The send waits and is tried again (delivery.ts); any other failure is final.
 */
export class ChannelError extends Error {
  constructor(
    message?: string,
    readonly retryLater = false,
  ) {
    super(message);
  }
}

export interface ChannelAdapter {
  readonly provider: ChannelProvider;
  /** Starts connecting: QR channels report qrcode() then status('open'); others go straight to status. */
  connect(chip: ChipRow): Promise<void>;
  disconnect(chip: ChipRow): Promise<void>;
  /** Forgets the credentials: the next connect needs a new QR scan. */
  reset(chip: ChipRow): Promise<void>;
  /**
   * Sends to `to` (digits with country code); answers the provider's message id. Throws ChannelError. `key`
   * names the send (its message row): a provider that takes our own message id (Baileys) makes it from the key,
   * so a send tried again after a dropped connection is one message to WhatsApp.
   */
  send(
    chip: ChipRow,
    to: string,
    content: OutboundContent,
    opts?: { key?: string },
  ): Promise<{ platformMessageId: string }>;
  /** Whether `phone` (digits with country code) has the messaging app; `id` is the provider's id for it. */
  checkPhone(chip: ChipRow, phone: string): Promise<{ exists: boolean; id: string | null }>;
  /**
   * Shows 'digitando…' to `to` while a chatbot or a flow prepares its answer (about `seconds`, ended by the
   * next message). `replyTo`: the provider's id of the customer message being answered (the Cloud API marks it
   * read and needs it). Best effort: the caller ignores a failure.
   */
  typing?(chip: ChipRow, to: string, seconds: number, replyTo: string | null): Promise<void>;
  /** Deletes a sent message for everyone, where the provider allows it. */
  deleteMessage(chip: ChipRow, to: string, platformMessageId: string): Promise<void>;
  /** Official numbers: the WABA's template messages, as the provider lists them. */
  listTemplates?(chip: ChipRow): Promise<ProviderTemplate[]>;
  /**
   * Official numbers: registers the number with the provider (or removes it). `pin`: the number's two-step
   * verification PIN as support typed it; without it the adapter uses (or makes) the chip's own.
   */
  register?(chip: ChipRow, register: boolean, pin?: string): Promise<void>;
  /** At server start: reconnect what was connected. */
  start?(chips: ChipRow[]): Promise<void>;
  stop?(): Promise<void>;
}
