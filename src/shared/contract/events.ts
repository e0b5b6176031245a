// Socket events (socket.io at /sock/). Every signed-in socket is in its account room (chip status, user
// changes); conversation events go only to the sockets allowed to see the conversation: owners and
// managers of the account, and attendants of the conversation's department (spec 2 §6).
import type { ChipStatus } from '../constants';
import type { CampaignProgress } from './campaigns';
import type { SimulatorMessage } from './chips';
import type { Conversation, Message } from './conversations';
import type { TemplateStatusEvent } from './templates';

/** The spec's single server→client event: `receive-message`, typed by `type`. */
export type ReceiveMessage =
  | { type: 'qrcode'; chip_number_id: string; message: string }
  /** `reason`: why a QR number closed (logged out on the phone, banned…), in pt-BR; our own addition. */
  | { type: 'status'; chip_number_id: string; message: ChipStatus; reason?: string }
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
  | { type: 'campaign_progress'; message: CampaignProgress }
  /** Account room: a template of one of its WABAs was approved, rejected, paused… (the /templates table). */
  | { type: 'template_status'; message: TemplateStatusEvent }
  /** Account room: an official campaign's counters changed (the /campanhas-api-oficial table). */
  | { type: 'official_campaign_updated'; message: { _id: string } }
  /** A webhook in status test received an event (room webhookRoom(id)): the JSON posted, as it came. */
  | { type: 'webhook_test'; message: { _id: string; data: unknown } }
  /**
   * Dashboard room (spec 3 §2.1): the real-time cards changed. load_open_conversations when a conversation
   * opened or finished, load_realtime when one changed otherwise (waiting, human, chatbot, chip). A hint
   * without numbers: the dashboard asks get-dashboard-real-time-data again. At most a few per second.
   */
  | { type: 'load_open_conversations'; message: { chip_id: string | null } }
  | { type: 'load_realtime'; message: { chip_id: string | null } };

export type ConversationEvent = Exclude<
  ReceiveMessage,
  | { type: 'qrcode' }
  | { type: 'status' }
  | { type: 'user_updated' }
  | { type: 'campaign_progress' }
  | { type: 'template_status' }
  | { type: 'official_campaign_updated' }
  | { type: 'webhook_test' }
  | { type: 'load_open_conversations' }
  | { type: 'load_realtime' }
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
   * for a user who may follow campaigns; joining one leaves the other campaign rooms), a webhook's room, or
   * the dashboard room of the caller's own account (dashboardRoom: for a user the access rule lets ask for the
   * real-time cards). Others are refused.
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
/** A webhook's 'Receber evento teste' (spec 3 §4 Webhook status): its webhook_test events. */
export const webhookRoom = (webhookId: string) => `webhook_${webhookId}`;
/**
 * The attendant dashboard's live cards (spec 3 §2.1): load_realtime and load_open_conversations. The server
 * puts the sockets of the users the access rule allows in it at the handshake (src/server/realtime).
 */
export const dashboardRoom = (accountId: string) => `dashboard_${accountId}`;
