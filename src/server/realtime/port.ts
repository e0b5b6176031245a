// Realtime as the rest of the server sees it: the events it emits to rooms, and the sockets it moves or closes
// when a user's access or session changes. The socket.io server (index.ts) implements it and app.ts hands it
// over in Services; this file imports no domain code, so Services does not close an import circle through
// the sign-in the socket handshake asks.
import type { Server } from 'socket.io';
import type { AccessArea, UserRole } from '../../shared/constants';
import type {
  ClientToServerEvents,
  ConversationEvent,
  ReceiveMessage,
  ServerToClientEvents,
  SimulatorEvent,
} from '../../shared/contract/events';

export interface SocketData {
  accountId: string;
  userId: string;
  sessionId: string;
  /** Set for a simulator page's socket instead of a user. */
  simulatorRoom?: string;
}

export type AppServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

export interface Realtime {
  io: AppServer;
  toAccount(accountId: string, event: ReceiveMessage): void;
  /** A conversation event: to owners and managers, and to the attendants of `departmentId`. */
  toConversation(accountId: string, departmentId: string | null, event: ConversationEvent): void;
  toSimulator(chipId: string, phone: string, event: SimulatorEvent): void;
  /** A campaign's follow dialogs (its room). */
  toCampaign(campaignId: string, event: Extract<ReceiveMessage, { type: 'campaign_progress' }>): void;
  /** A webhook's 'Receber evento teste' (its room). */
  toWebhook(webhookId: string, event: Extract<ReceiveMessage, { type: 'webhook_test' }>): void;
  /** A user's role or departments changed: their open sockets move to the right rooms. */
  refreshUser(user: {
    id: string;
    accountId: string;
    userRole: UserRole;
    departments: string[];
    accessAreas: AccessArea[];
  }): Promise<void>;
  /** A deleted user, or their sessions ended: their open sockets are closed (but `keepSessionId`'s). */
  dropUser(userId: string, opts?: { keepSessionId?: string }): Promise<void>;
  /** A session ended: its open sockets are closed. */
  dropSession(sessionId: string): void;
  /** The users of the account with an open socket now, on every process (the adapter's fetchSockets). */
  onlineUsers(accountId: string): Promise<Set<string>>;
}

/**
 * Told of every conversation event this process emits, and of every user socket connecting to it (equal
 * distribution listens: domains/distribution).
 */
export interface RealtimeListener {
  conversationEvent(accountId: string, departmentId: string | null, event: ConversationEvent): void;
  userConnected(accountId: string, userId: string): void;
}
