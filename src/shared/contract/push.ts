// Web Push (issue 7): the server's public VAPID key, and each user's subscriptions, one per device.
import { z } from 'zod';
import { messages } from '../messages';
import { defineCall } from './define';

const endpoint = z
  .string()
  .max(2000)
  .url()
  .refine((u) => /^https?:\/\//.test(u), messages.fieldProblems.pushEndpoint);
const key = z
  .string()
  .min(8)
  .max(200)
  .regex(/^[A-Za-z0-9_-]+=*$/, messages.fieldProblems.pushKey);

/**
 * What the server sends in a Web Push message (encrypted, as JSON) and the service worker reads: 'Nova
 * conversa' for a conversation the user may see.
 */
export interface PushPayload {
  type: 'new_conversation';
  title: string;
  body: string;
  conversation_id: string;
  /** The user's sound toggle (disable_notification_sound). */
  silent: boolean;
}

export const pushCalls = {
  /** The application server key the browser subscribes with. */
  'get-push-key': defineCall({
    access: {},
    payload: z.object({}),
    answer: z.object({ public_key: z.string() }),
  }),
  /** This device's subscription for the signed-in user (a repeat updates it; a device moves between users). */
  'subscribe-push': defineCall({
    access: {},
    payload: z.object({ endpoint, keys: z.object({ p256dh: key, auth: key }) }),
    answer: z.object({ subscribed: z.boolean() }),
  }),
  /** This device's subscription, gone (the switch turned off, or a sign-out). */
  'unsubscribe-push': defineCall({
    access: {},
    payload: z.object({ endpoint }),
    answer: z.object({ subscribed: z.boolean() }),
  }),
};
