// The registry of every call. Later domains add their `<domain>Calls` object here.
import { z } from 'zod';
import { adminCalls } from './admin';
import { aiCalls } from './ai';
import { appConfigCalls } from './app-config';
import { billingCalls } from './billing';
import { campaignsCalls } from './campaigns';
import { chatbotsCalls } from './chatbots';
import { chipsCalls } from './chips';
import { configurationCalls } from './configuration';
import { contactsCalls } from './contacts';
import { conversationsCalls } from './conversations';
import { dashboardCalls } from './dashboard';
import type { CallDef } from './define';
import { flowsCalls } from './flows';
import { followUpsCalls } from './follow-ups';
import { mediaCalls } from './media';
import { newConversationCalls } from './new-conversation';
import { pushCalls } from './push';
import { scheduledMessagesCalls } from './scheduled-messages';
import { templatesCalls } from './templates';
import { usersCalls } from './users';
import { webhooksCalls } from './webhooks';

// Schema errors in Brazilian Portuguese, on both sides.
z.config(z.locales.ptBR());

export const calls = {
  ...usersCalls,
  ...configurationCalls,
  ...chipsCalls,
  ...conversationsCalls,
  ...contactsCalls,
  ...appConfigCalls,
  ...mediaCalls,
  ...scheduledMessagesCalls,
  ...newConversationCalls,
  ...aiCalls,
  ...pushCalls,
  ...flowsCalls,
  ...chatbotsCalls,
  ...campaignsCalls,
  ...templatesCalls,
  ...followUpsCalls,
  ...webhooksCalls,
  ...dashboardCalls,
  ...billingCalls,
  ...adminCalls,
} satisfies Record<string, CallDef>;

export type Calls = typeof calls;
export type CallName = keyof Calls;
export type Payload<N extends CallName> = z.input<Calls[N]['payload']>;
export type Answer<N extends CallName> = z.output<Calls[N]['answer']>;

/** The wire envelope of every answer (DESIGN.md, "The wire"). */
// `field`: the form field a refusal belongs to (a shared rule's { field, message }).
export type Envelope<T> =
  | { error: false; message: T }
  | { error: true; message: string; field?: string; logout?: boolean };

export const isCallName = (name: string): name is CallName => Object.hasOwn(calls, name);

export * from './common';
export type { CallAccess, CallDef } from './define';
