// Web Push on this device (issue 7): the switch asks the browser's permission, subscribes with the server's
// VAPID key and tells the server (per user and device); turning it off, or signing out, unsubscribes.

import { api } from '@/app/lib/api';
import { messages } from '@/shared/messages';

export const pushSupported = () =>
  typeof window !== 'undefined' &&
  'serviceWorker' in navigator &&
  'PushManager' in window &&
  'Notification' in window;

async function registration() {
  if (!pushSupported()) return null;
  return (await navigator.serviceWorker.getRegistration()) ?? null;
}

/** This device's subscription, if notifications are on here. */
export async function currentPushSubscription() {
  const reg = await registration();
  return (await reg?.pushManager.getSubscription()) ?? null;
}

function keyBytes(base64url: string) {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

/** Asks permission, subscribes and tells the server. Answers an error text, or null when done. */
export async function enablePush(): Promise<string | null> {
  const reg = await registration();
  if (!reg) return messages.pushUnsupported;
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return messages.pushDenied;
  const { public_key } = await api('get-push-key');
  const subscription =
    (await reg.pushManager.getSubscription()) ??
    (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(public_key) }));
  const json = subscription.toJSON() as { endpoint: string; keys: { p256dh: string; auth: string } };
  await api('subscribe-push', { endpoint: json.endpoint, keys: json.keys });
  return null;
}

/** Unsubscribes this device here and on the server (the server may be unreachable at sign-out). */
export async function disablePush() {
  const subscription = await currentPushSubscription();
  if (!subscription) return;
  const { endpoint } = subscription;
  await subscription.unsubscribe().catch(() => false);
  await api('unsubscribe-push', { endpoint }).catch(() => undefined);
}
