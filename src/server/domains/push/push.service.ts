// Web Push (issue 7): VAPID keys made at the first start and kept in the database; each user's subscriptions,
// one per device; and the 'Nova conversa' notification to everyone allowed to see a new conversation who
// turned notifications on (holds a subscription). The payload is encrypted (aes128gcm) by web-push; the
// request is sent with fetch, so a push service is just an HTTP endpoint (a local one in the tests).
import { and, eq, inArray } from 'drizzle-orm';
import webpush from 'web-push';
import type { Conversation } from '../../../shared/contract/conversations';
import type { PushPayload } from '../../../shared/contract/push';
import { truncatePreview, withoutBidiControls } from '../../../shared/format';
import { newId } from '../../../shared/ids';
import { messages } from '../../../shared/messages';
import { seesDepartment } from '../../../shared/rules/access';
import type { Db } from '../../db';
import { insertOnce } from '../../db/insert-once';
import { pushKeys, pushSubscriptions, users } from '../../db/schema';

const KEY_ID = 'vapid';
/** A push service keeps an undelivered message this long (the phone may be off). */
const TTL_SECONDS = 24 * 60 * 60;

let cached: { db: Db; keys: { publicKey: string; privateKey: string } } | null = null;

/** The VAPID key pair: read, or made and stored at the first call (two racing starts keep the first one). */
export async function vapidKeys(db: Db) {
  if (cached?.db === db) return cached.keys;
  let [row] = await db.select().from(pushKeys).where(eq(pushKeys.id, KEY_ID)).limit(1);
  if (!row) {
    const made = webpush.generateVAPIDKeys();
    const stored = await insertOnce(
      db,
      pushKeys,
      { id: KEY_ID, publicKey: made.publicKey, privateKey: made.privateKey },
      eq(pushKeys.id, KEY_ID),
    );
    row = stored?.row;
  }
  if (!row) throw new Error('VAPID keys not stored');
  const keys = { publicKey: row.publicKey, privateKey: row.privateKey };
  cached = { db, keys };
  return keys;
}

export async function subscribe(
  db: Db,
  user: { id: string; accountId: string },
  sub: { endpoint: string; keys: { p256dh: string; auth: string } },
  userAgent: string | null,
) {
  // The endpoint names the device: it moves to whoever subscribes with it last.
  await db
    .insert(pushSubscriptions)
    .values({
      id: newId(),
      accountId: user.accountId,
      userId: user.id,
      endpoint: sub.endpoint,
      p256dh: sub.keys.p256dh,
      auth: sub.keys.auth,
      userAgent,
    })
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: {
        accountId: user.accountId,
        userId: user.id,
        p256dh: sub.keys.p256dh,
        auth: sub.keys.auth,
        userAgent,
      },
    });
}

export async function unsubscribe(db: Db, userId: string, endpoint: string) {
  await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)));
}

/** Sends one push; a subscription the push service says is gone (404, 410) is forgotten. */
async function deliver(
  db: Db,
  keys: { publicKey: string; privateKey: string },
  publicUrl: string,
  sub: typeof pushSubscriptions.$inferSelect,
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
  if (res.status === 404 || res.status === 410)
    await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, sub.id));
  return res.status;
}

/**
 * 'Nova conversa' (contact name plus a preview) to every user of the account allowed to see it: owners and
 * managers, and the attendants of its department; only those with a subscription get one.
 */
export async function notifyNewConversation(
  db: Db,
  publicUrl: string,
  accountId: string,
  conversation: Conversation,
): Promise<number> {
  const subs = await db
    .select({ sub: pushSubscriptions, user: users })
    .from(pushSubscriptions)
    .innerJoin(users, eq(users.id, pushSubscriptions.userId))
    .where(and(eq(pushSubscriptions.accountId, accountId), eq(users.filed, false)));
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
      const status = await deliver(db, keys, publicUrl, sub, payload).catch((err: unknown) => {
        failure ??= err;
        return 0;
      });
      if (status >= 200 && status < 300) sent += 1;
    }),
  );
  if (failure) throw failure;
  return sent;
}

/** Removes every subscription of these users (deleted users). */
export async function dropUsers(db: Db, userIds: string[]) {
  if (userIds.length) await db.delete(pushSubscriptions).where(inArray(pushSubscriptions.userId, userIds));
}
