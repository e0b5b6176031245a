// Channels (spec 3 §2.6, §3 Chip, §4 Channel status, §5 Channel) and the built-in simulator's public calls.
import { z } from 'zod';
import { CHIP_REDIRECTS, MESSAGE_TYPES } from '../constants';
import { messages } from '../messages';
import { chip, fileName, id, interactiveMenu, noPayload, ok } from './common';
import { defineCall } from './define';

const manageChips = { roles: ['owner', 'manager'], area: 'chips' } as const;
const text = (max: number) => z.string().max(max);

/** The simulator link's token: 43 url-safe characters (256 bits). */
const simulatorToken = z.string().regex(/^[A-Za-z0-9_-]{43}$/, messages.fieldProblems.simulatorToken);
/** A customer's phone as typed on the simulator page: digits with country and area code. */
const simulatorPhone = z
  .string()
  .trim()
  .regex(/^\+?[0-9 ()-]{8,24}$/, messages.invalidPhone);

/** A message as the simulated phone shows it: the customer's and the business's, in order. */
export const simulatorMessage = z.object({
  /** The provider id (the platform_message_id on the server's side). */
  id: z.string(),
  from_me: z.boolean(),
  type: z.enum(MESSAGE_TYPES),
  text: z.string(),
  media_url: z.string().nullable(),
  file_name: z.string().nullable(),
  /** Audio that arrives as a voice note (recorded), not as a file. */
  ptt: z.boolean(),
  location: z.object({ latitude: z.number(), longitude: z.number(), name: z.string().optional() }).nullable(),
  /** For the business's messages: 1 sent, 3 delivered, 4 read. For the customer's: always 1. */
  status: z.number().int(),
  /** Deleted for everyone by the business: shown as 'Mensagem apagada'. */
  deleted: z.boolean(),
  created: z.string(),
  /** A flow's menu on a chip with interactive messages: buttons or a list the customer taps. */
  interactive: interactiveMenu.nullish(),
});
export type SimulatorMessage = z.infer<typeof simulatorMessage>;

export const chipsCalls = {
  /** Every role: the top bar and the drawer show the chips (attendants only their departments' chips). */
  'get-chip-numbers-by-user': defineCall({ access: {}, payload: noPayload, answer: z.array(chip) }),
  'create-or-update-chip': defineCall({
    access: manageChips,
    payload: z.object({
      /** Named by the app when the dialog opens: the same creation sent twice makes one chip. */
      _id: id.optional(),
      filed: z.boolean().optional(),
      name: text(100).default(''),
      redirect: z.enum(CHIP_REDIRECTS).or(z.literal('')).default('ai_chatbot'),
      chatbot: id.nullish(),
      flow: id.nullish(),
      department: id.or(z.literal('')).nullish(),
      /** Only on creation: an official API number, set up afterwards by support. */
      official: z.boolean().default(false),
    }),
    answer: chip,
  }),
  /** Connect (true) or disconnect (false): a QR code arrives over the socket for QR channels. */
  'connect-chip': defineCall({
    access: manageChips,
    payload: z.object({ _id: id, connect: z.boolean() }),
    answer: chip,
  }),
  /**
   * QR numbers (Baileys): connects with a pairing code instead of the QR code; the owner types it on the phone
   * (WhatsApp > Aparelhos conectados > Conectar com número de telefone). `phone`: the chip's own number.
   */
  'request-pairing-code': defineCall({
    access: manageChips,
    payload: z.object({ _id: id, phone: z.string().max(32) }),
    answer: z.object({ code: z.string() }),
  }),
  /** Clears the channel's credentials: a new QR scan is needed. */
  'reset-chip-connection': defineCall({ access: manageChips, payload: z.object({ _id: id }), answer: chip }),
  /** Platform support: an official number's provider data (spec 3 §7 "admin update chip"). */
  'admin-update-chip': defineCall({
    access: { admin: true },
    payload: z.object({
      _id: id,
      waba: text(64).nullish(),
      phone_number_id: z
        .string()
        .regex(/^[0-9]{1,32}$/, messages.fieldProblems.phoneNumberId)
        .nullish(),
      display_phone_number: text(32).nullish(),
      filed: z.boolean().optional(),
    }),
    answer: chip,
  }),
  /** Platform support: registers (or unregisters) an official number with the provider. */
  'register-phone-number': defineCall({
    access: { admin: true },
    payload: z.object({ _id: id, register: z.boolean() }),
    answer: chip,
  }),

  // --- the simulator page: public, reached only through the chip's secret link ----------------------
  /** Opens the page; a link with a pairing code "scans" the QR code and connects the chip. */
  'simulator-open': defineCall({
    access: { public: true },
    payload: z.object({ token: simulatorToken, pair: text(64).optional() }),
    answer: z.object({
      chip_name: z.string(),
      connected: z.boolean(),
      /** Flows' menus arrive as numbered text (a number without interactive messages), not as buttons. */
      numbered_menus: z.boolean(),
    }),
  }),
  /**
   * The simulator plays an official number (flows' menus as WhatsApp's buttons and lists) or another one (the
   * same menus as numbered text): the page's switch, kept on the chip for every page of its link.
   */
  'simulator-set-menus': defineCall({
    access: { public: true },
    payload: z.object({ token: simulatorToken, numbered: z.boolean() }),
    answer: ok,
  }),
  /** The customer's conversation with the chip, oldest first (the last 200). */
  'simulator-get-messages': defineCall({
    access: { public: true },
    payload: z.object({ token: simulatorToken, phone: simulatorPhone }),
    answer: z.array(simulatorMessage),
  }),
  /** The customer sends: text, a location, or a file uploaded with simulator-upload. */
  'simulator-send': defineCall({
    access: { public: true },
    payload: z.object({
      token: simulatorToken,
      phone: simulatorPhone,
      name: text(100).default(''),
      /** The page names each message, so a retried send is one message. */
      id: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/),
      type: z.enum(['text', 'image', 'audio', 'video', 'document', 'location']),
      text: text(4096).default(''),
      media_url: text(300).optional(),
      file_name: fileName(200).optional(),
      location: z
        .object({
          latitude: z.number().min(-90).max(90),
          longitude: z.number().min(-180).max(180),
          name: text(200).optional(),
        })
        .optional(),
      /** A tap on an option of a menu (text is the option's title). */
      choice: z.object({ id: text(200), title: text(200) }).optional(),
    }),
    answer: simulatorMessage,
  }),
  'simulator-upload': defineCall({
    access: { public: true },
    upload: { maxBytes: 16 * 1024 * 1024 },
    payload: z.object({ token: simulatorToken }),
    answer: z.object({ url: z.string(), mime: z.string(), file_name: z.string() }),
  }),
  /** The customer saw the business's messages: delivered (3) or read (4). */
  'simulator-mark': defineCall({
    access: { public: true },
    payload: z.object({
      token: simulatorToken,
      phone: simulatorPhone,
      ids: z.array(z.string().max(100)).min(1).max(500),
      status: z.union([z.literal(3), z.literal(4)]),
    }),
    answer: ok,
  }),
};
