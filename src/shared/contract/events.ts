// Socket events (socket.io at /sock/). Every signed-in socket is in its account room (chip status, user
// changes); conversation events go only to the sockets allowed to see the conversation: owners and
// managers of the account, and attendants of the conversation's department (spec 2 §6).
import type { ChipStatus } from '../constants';
import type { CampaignProgress } from './campaigns';
import type { SimulatorMessage } from './chips';
import type { Conversation, Message } from './conversations';

/** The spec's single server→client event: `receive-message`, typed by `type`. */
export type ReceiveMessage =
  | { type: 'qrcode'; chip_number_id: string; message: string }
  | { type: 'status'; chip_number_id: string; message: ChipStatus }
  | { type: 'user_updated'; message: { _id: string } }
  // spec 2 §4: the service screen's events
  /** `user`: who opened it (Nova conversa), null when a customer or a job did; our own addition. */
  | { type: 'new_conversation'; message: Conversation; user?: string | null }
  | { type: 'new_message'; message: { conversation_id: string; message: Message } }
  /** `by`: who changed it, when a user did (a transfer, a menu action); absent for the system's changes. */
  | { type: 'conversation_updated'; message: Conversation; by?: string }
  | { type: 'conversation_finished'; message: { _id: string; user: string | null } }
  | { type: 'message_read'; message: { conversation_id: string; _id: string; status: number } }
  | { type: 'set_manual'; message: { _id: string; user: string | null } }
  /** Our own: a message changed otherwise (sent, delivered, failed, deleted). */
  | { type: 'message_updated'; message: { conversation_id: string; message: Message } }
  /** A campaign's follow dialog (room campaignRoom(id)): after each send, and when it pauses or ends. */
  | { type: 'campaign_progress'; message: CampaignProgress };

export type ConversationEvent = Exclude<
  ReceiveMessage,
  { type: 'qrcode' } | { type: 'status' } | { type: 'user_updated' } | { type: 'campaign_progress' }
>;

/** The simulator page's socket: the business's replies and their status changes. */
export type SimulatorEvent =
  | { type: 'message'; message: SimulatorMessage }
  | { type: 'deleted'; message: { id: string } }
  | { type: 'chip'; message: { connected: boolean } }
  /** The business is typing (a chatbot or a flow preparing its answer), for about `seconds`. */
  | { type: 'typing'; message: { seconds: number } };

export interface ServerToClientEvents {
  'receive-message': (event: ReceiveMessage) => void;
  simulator: (event: SimulatorEvent) => void;
}

export interface ClientToServerEvents {
  /**
   * Joins the caller's own account room, or a campaign's room (campaignRoom: the caller's account's campaign,
   * for a user who may follow campaigns; joining one leaves the other campaign rooms). Others are refused.
   */
  'join-room': (room: string, ack?: (ok: boolean) => void) => void;
}

export const accountRoom = (accountId: string) => `account_${accountId}`;
/** Owners and managers: every conversation of the account. */
export const allConversationsRoom = (accountId: string) => `account_${accountId}:all`;
/** Attendants: the conversations of one department. */
export const departmentRoom = (accountId: string, departmentId: string) =>
  `account_${accountId}:department_${departmentId}`;
export const simulatorRoom = (chipId: string, phone: string) => `simulator_${chipId}_${phone}`;
/** A campaign's follow dialog (spec 3 §4): its campaign_progress events. */
export const campaignRoom = (campaignId: string) => `account_campaign_${campaignId}`;
