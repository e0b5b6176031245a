// Socket events (socket.io at /sock/). Rooms: account_<id>; later account_campaign_<id>, webhook_<id>.
import type { ChipStatus } from '../constants';

/** The spec's single server→client event: `receive-message`, typed by `type`. */
export type ReceiveMessage =
  | { type: 'qrcode'; chip_number_id: string; message: string }
  | { type: 'status'; chip_number_id: string; message: ChipStatus }
  | { type: 'user_updated'; message: { _id: string } };

export interface ServerToClientEvents {
  'receive-message': (event: ReceiveMessage) => void;
}

export interface ClientToServerEvents {
  /** Joins the caller's own account room; any other room is refused. */
  'join-room': (room: string, ack?: (ok: boolean) => void) => void;
}

export const accountRoom = (accountId: string) => `account_${accountId}`;
