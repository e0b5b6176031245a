// Web Push (issue 7): VAPID keys made at the first start and kept in the database; each user's subscriptions,
// one per device; and the 'Nova conversa' notification to everyone allowed to see a new conversation who
// turned notifications on (holds a subscription). The payload is encrypted (aes128gcm) by web-push; the
// request is sent with fetch, so a push service is just an HTTP endpoint (a local one in the tests).
import webpush from 'web-push';
import type { Conversation } from '../../../shared/contract/conversations';
import type { PushPayload } from '../../../shared/contract/push';
import { truncatePreview, withoutBidiControls } from '../../../shared/format';
import { newId } from '../../../shared/ids';
import { messages } from '../../../shared/messages';
import { seesDepartment } from '../../../shared/rules/access';
import type { Actor, UserActor } from '../../access';
import type { Db } from '../../db';
import type { Services } from '../../services';
import { type PushSubscriptionRow, pushKeysRepo, pushSubscriptionsRepo } from './push.repo';

/** A push service keeps an undelivered message this long (the phone may be off). */
const TTL_SECONDS = 24 * 60 * 60;

let cached: { db: Db; keys: { publicKey: string; privateKey: string } } | null = null;

/** The VAPID key pair: read, or made and stored at the first call (two racing starts keep the first one). */
export async function vapidKeys(db: Db) {
  if (cached?.db === db) return cached.keys;
  const row = await pushKeysRepo.findOrStore(db, () => webpush.generateVAPIDKeys());
  if (!row) throw new Error('VAPID keys not stored');
  const keys = { publicKey: row.publicKey, privateKey: row.privateKey };
  cached = { db, keys };
  return keys;
}

export async function subscribe(
  services: Services,
  actor: UserActor,
  sub: { endpoint: string; keys: { p256dh: string; auth: string } },
  userAgent: string | null,
) {
  await pushSubscriptionsRepo.subscribe(services.db, actor, newId(), {
    endpoint: sub.endpoint,
    p256dh: sub.keys.p256dh,
    auth: sub.keys.auth,
    userAgent,
  });
}

export async function unsubscribe(services: Services, actor: UserActor, endpoint: string) {
  await pushSubscriptionsRepo.unsubscribe(services.db, actor, endpoint);
}

/** Sends one push; a subscription the push service says is gone (404, 410) is forgotten. */
async function deliver(
  db: Db,
  actor: Actor,
  keys: { publicKey: string; privateKey: string },
  publicUrl: string,
  sub: PushSubscriptionRow,
  payload: PushPayload,
) {
  const details = webpush.generateRequestDetails(
    { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
    JSON.stringify(payload),
    {
      TTL: TTL_SECONDS,
      contentEncoding: 'aes128gcm',
      // The subject must be https: or mailto: (a local http address is refused by the push services).
      vapidDetails: {
        subject: publicUrl.startsWith('https:') ? publicUrl : 'mailto:push@painel.local',
        ...keys,
      },
    },
  );
  const res = await fetch(details.endpoint, {
    method: details.method,
    headers: details.headers as Record<string, string>,
    body: details.body ? new Uint8Array(details.body) : undefined,
  });
  if (res.status === 404 || res.status === 410) await pushSubscriptionsRepo.forget(db, actor, sub.id);
  return res.status;
}

/**
 * 'Nova conversa' (contact name plus a preview) to every user of the account allowed to see it: owners and
 * managers, and the attendants of its department; only those with a subscription get one.
 */
export async function notifyNewConversation(
  services: Pick<Services, 'db' | 'config'>,
  actor: Actor,
  conversation: Conversation,
): Promise<number> {
  const { db } = services;
  const subs = await pushSubscriptionsRepo.withUsers(db, actor);
  const allowed = subs.filter(({ user }) => seesDepartment(user, conversation.department));
  if (allowed.length === 0) return 0;
  const keys = await vapidKeys(db);
  const contact = conversation.contact;
  const name = withoutBidiControls(contact.override_name || contact.name) || contact.phone;
  const preview = conversation.last_message?.message
    ? truncatePreview(conversation.last_message.message)
    : '';
  let sent = 0;
  let failure: unknown = null;
  await Promise.all(
    allowed.map(async ({ sub, user }) => {
      const payload: PushPayload = {
        type: 'new_conversation',
        title: messages.newConversationPushTitle,
        body: preview ? `${name}: ${preview}` : name,
        conversation_id: conversation._id,
        silent: user.disableNotificationSound,
      };
      // One device's failure does not stop the others; the first one is reported after.
      const status = await deliver(db, actor, keys, services.config.publicUrl, sub, payload).catch(
        (err: unknown) => {
          failure ??= err;
          return 0;
        },
      );
      if (status >= 200 && status < 300) sent += 1;
    }),
  );
  if (failure) throw failure;
  return sent;
}
