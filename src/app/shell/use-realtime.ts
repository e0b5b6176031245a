// Starts the socket client for the signed-in user and turns its events into cache updates.
import { notifications } from '@mantine/notifications';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { session } from '@/app/lib/api';
import { chipsQuery } from '@/app/lib/chips';
import { publishConversationEvent } from '@/app/lib/conversation-events';
import { isOnline, onOnlineChange } from '@/app/lib/online';
import { createSocketClient, type SocketStatus, socketFailedText } from '@/app/lib/socket';
import { currentUserQuery } from '@/app/lib/user';
import type { Chip, User } from '@/shared/contract';
import type { ReceiveMessage } from '@/shared/contract/events';
import { messages } from '@/shared/messages';
import { openManualCountQuery } from './Bell';

/** /campanhas-api-oficial's list (callQuery's key of get-campaigns-by-user {official: true}). */
export const officialCampaignsKey = ['get-campaigns-by-user', { official: true }] as const;

const NOTICE = 'socket-status';

function showStatus(status: SocketStatus) {
  notifications.hide(NOTICE);
  if (status === 'waiting-address') {
    notifications.show({
      id: NOTICE,
      color: 'blue',
      loading: true,
      autoClose: false,
      message: messages.socketWaiting,
    });
  } else if (status === 'failed') {
    const message = socketFailedText(window.location.pathname);
    notifications.show({ id: NOTICE, color: 'red', autoClose: false, message });
  }
}

/**
 * A chip's live news (spec 3 §4) lands in the chips cache the top bar, the drawer and Meus chips all read: a
 * QR code to scan (the chip is then connecting), or a new status, which takes any QR code away.
 */
function applyChipEvent(
  client: QueryClient,
  id: string,
  change: Pick<Chip, 'status' | 'qrcode' | 'status_reason'>,
) {
  const chips = client.getQueryData<Chip[]>(chipsQuery.queryKey);
  if (chips?.some((c) => c._id === id)) {
    client.setQueryData<Chip[]>(chipsQuery.queryKey, (list) =>
      list?.map((c) => (c._id === id ? { ...c, ...change } : c)),
    );
  } else {
    // A chip this cache does not know yet (just created elsewhere): ask for the list again.
    void client.invalidateQueries({ queryKey: chipsQuery.queryKey });
  }
}

/** One socket event into the query cache (exported for its unit test). */
export function applyEvent(client: QueryClient, userId: string, event: ReceiveMessage) {
  if (event.type === 'qrcode') {
    applyChipEvent(client, event.chip_number_id, { status: 'connecting', qrcode: event.message });
  } else if (event.type === 'status') {
    applyChipEvent(client, event.chip_number_id, {
      status: event.message,
      qrcode: null,
      status_reason: event.reason,
    });
  } else if (event.type === 'user_updated') {
    if (event.message._id === userId) void client.invalidateQueries({ queryKey: currentUserQuery.queryKey });
  } else if (event.type === 'campaign_progress' || event.type === 'webhook_test') {
    // Only a campaign's or a webhook's room gets these, and only that screen's own socket joins one.
  } else if (
    event.type === 'template_status' ||
    event.type === 'load_realtime' ||
    event.type === 'load_open_conversations'
  ) {
    // Read by the /templates screen's and the dashboard's own listeners (lib/account-events.ts).
    window.dispatchEvent(new CustomEvent('account-event', { detail: event }));
  } else if (event.type === 'official_campaign_updated') {
    // The official campaigns' list (its counters moved): asked again if a screen shows it.
    void client.invalidateQueries({ queryKey: officialCampaignsKey });
  } else {
    publishConversationEvent(event);
  }
}

/** The account's socket server (spec 1 §7, user.account.server); the page's origin as fallback. */
function socketAddress(server: string): string | null {
  const address = server || window.location.origin;
  // In development the Vite server proxies /sock/ to the API server.
  return import.meta.env.DEV ? window.location.origin : address;
}

export function useRealtime(user: User) {
  const client = useQueryClient();
  const { _id: userId, account } = user;
  const { _id: accountId, server } = account;
  useEffect(() => {
    const socket = createSocketClient({
      address: () => socketAddress(server),
      token: () => session.token,
      accountId,
      onStatus: (status) => {
        showStatus(status);
        // Connected, the first time too: what happened before the socket listened (between the lists'
        // answers and this moment, or while away) is caught up, and what waits in the outbox is sent.
        if (status === 'connected') {
          void import('@/app/offline/app-offline').then((m) => m.reconnected());
          // The chips' states and the bell's count are not in the catch-up: asked again.
          void client.invalidateQueries({ queryKey: chipsQuery.queryKey });
          void client.invalidateQueries({ queryKey: openManualCountQuery.queryKey });
          // The dashboard's live cards missed the hints meanwhile.
          void client.invalidateQueries({ queryKey: ['get-dashboard-real-time-data'] });
        }
      },
      onEvent: (event) => applyEvent(client, userId, event),
      // The server closed this session's socket and refuses the token: sign out as a 401 would.
      onUnauthorized: () => session.end(messages.unauthorized),
    });
    // Offline, failures are not counted: the client waits for the connection to come back.
    if (isOnline()) socket.start();
    const stopFollowing = onOnlineChange((online) => (online ? socket.start() : socket.pause()));
    return () => {
      stopFollowing();
      socket.stop();
      notifications.hide(NOTICE);
    };
  }, [client, userId, accountId, server]);
}
