// The webhook screens' calls and the detail screen's draft (spec 3 §2.13, §4 Webhook status, §5 Webhook save):
// the list, one webhook, the official chip's fixed-content templates, create (then its edit page), save,
// delete, and 'Receber evento teste' (a socket of its own in the room webhook_<id>).
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '@/app/lib/api';
import { useCallMutation } from '@/app/lib/mutation';
import { callQuery } from '@/app/lib/query';
import { openRoomSocket } from '@/app/lib/room-socket';
import { useCurrentUser } from '@/app/lib/user';
import type { ChipRedirect } from '@/shared/constants';
import type { ConversationCreationRule, TemplatePayload } from '@/shared/contract/campaigns';
import { webhookRoom } from '@/shared/contract/events';
import type {
  Webhook,
  WebhookChanges,
  WebhookField,
  WebhookStatus,
  WebhookTemplate,
} from '@/shared/contract/webhooks';
import { webhookMessages as M } from '@/shared/messages-webhooks';

export const webhooksQuery = callQuery('get-webhooks-by-user');
export const webhookQuery = (id: string) => callQuery('get-webhook-by-id', { _id: id });

/** The edit page's path. */
export const webhookPath = (id: string) => `/webhooks/${encodeURIComponent(id)}`;

/** The official chip's templates a webhook may send (APPROVED, fixed content). */
export const useWebhookTemplates = (chip: string | null, official: boolean) =>
  useQuery({
    ...callQuery('get-webhook-templates', { chip: chip ?? '' }),
    enabled: !!chip && official,
    staleTime: 30_000,
  });

export interface WebhookDraft {
  name: string;
  status: WebhookStatus;
  chip: string | null;
  flow: string | null;
  template: WebhookTemplate | null;
  template_payloads: TemplatePayload[];
  conversation_creation_rule: ConversationCreationRule;
  redirect: ChipRedirect | null;
  chatbot: string | null;
  department: string | null;
  data: string;
  fields: WebhookField[];
}

export const draftOf = (w: Webhook): WebhookDraft => ({
  name: w.name,
  status: w.status,
  chip: w.chip?._id ?? null,
  flow: w.flow,
  template: w.template,
  template_payloads: w.template_payloads,
  conversation_creation_rule: w.conversation_creation_rule,
  redirect: w.redirect,
  chatbot: w.chatbot,
  department: w.department,
  data: w.data,
  fields: w.fields.length ? w.fields : [{ name: 'telefone', origin: [], value: '' }],
});

export const changesOf = (d: WebhookDraft): WebhookChanges => ({
  ...d,
  template: d.template && { name: d.template.name, language: d.template.language },
});

export const useCreateWebhook = (onCreated: (id: string) => void) =>
  useCallMutation('create-or-update-webhook', {
    successMessage: M.created,
    toastError: true,
    invalidates: [webhooksQuery.queryKey],
    onSuccess: (w) => onCreated(w.upsertedId ?? w._id),
  });

export const useSaveWebhook = () =>
  useCallMutation('create-or-update-webhook', {
    successMessage: M.updated,
    invalidates: [webhooksQuery.queryKey],
  });

export const useDeleteWebhook = () =>
  useCallMutation((w: Webhook) => api('create-or-update-webhook', { _id: w._id, filed: true }), {
    successMessage: M.deleted,
    toastError: true,
    invalidates: [webhooksQuery.queryKey],
  });

/** How long 'Receber evento teste' waits (spec 3 §4). */
export const TEST_EVENT_TIMEOUT_MS = 60_000;

/**
 * 'Receber evento teste': joins the webhook's room on a socket of its own and waits for one event; it ends when
 * the event arrives (`onEvent`), on `stop`, after TEST_EVENT_TIMEOUT_MS (`onTimeout`) or when the page is left.
 */
export function useTestEvent(
  webhookId: string,
  handlers: { onEvent(data: unknown): void; onTimeout(): void },
) {
  const server = useCurrentUser().account.server;
  const [waiting, setWaiting] = useState(false);
  const close = useRef<() => void>(() => {});
  const latest = useRef(handlers);
  latest.current = handlers;

  const stop = useCallback(() => {
    close.current();
    close.current = () => {};
    setWaiting(false);
  }, []);

  const start = useCallback(() => {
    close.current();
    setWaiting(true);
    const timer = setTimeout(() => {
      stop();
      latest.current.onTimeout();
    }, TEST_EVENT_TIMEOUT_MS);
    const closeSocket = openRoomSocket(server, webhookRoom(webhookId), {
      event: (event) => {
        if (event.type !== 'webhook_test' || event.message._id !== webhookId) return;
        stop();
        latest.current.onEvent(event.message.data);
      },
    });
    close.current = () => {
      clearTimeout(timer);
      closeSocket();
    };
  }, [server, webhookId, stop]);

  useEffect(() => () => close.current(), []);
  return { waiting, start, stop };
}
