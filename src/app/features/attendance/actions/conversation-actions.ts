// The conversation menu's one-click actions (spec 2 §2.3, §4, §7): each calls the server, shows the spec's
// text and writes the answer into the cache; the other users learn it from the socket.
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { api } from '@/app/lib/api';
import { notifyError, notifySuccess } from '@/app/lib/notify';
import { useCurrentUser } from '@/app/lib/user';
import { confirm } from '@/app/ui/confirm';
import type { ContactDetails } from '@/shared/contract/contacts';
import type { Contact, Conversation } from '@/shared/contract/conversations';
import { messages } from '@/shared/messages';
import { seesDepartment, subjectOfAnswer } from '@/shared/rules/access';
import { dropConversation, LIST_KEY, patchConversation } from '../data/conversations';

/** The contact as a conversation carries it, from the drawer's fuller shape. */
export function contactOf(details: ContactDetails): Contact {
  const { data: _data, annotations: _annotations, ...contact } = details;
  return contact;
}

/** A contact's change reaches the conversation that shows it. */
export function patchContact(client: QueryClient, conversation: Conversation, details: ContactDetails) {
  patchConversation(client, { ...conversation, contact: contactOf(details) });
}

async function attempt<T>(work: () => Promise<T>, done: (answer: T) => void) {
  try {
    done(await work());
  } catch (err) {
    notifyError(err);
  }
}

export function useConversationActions(conversation: Conversation, onClose: () => void) {
  const client = useQueryClient();
  const user = useCurrentUser();
  const conversation_id = conversation._id;

  const updated = (c: Conversation) => {
    patchConversation(client, c);
    notifySuccess(messages.conversationUpdated);
  };

  return {
    markAnswered: () =>
      attempt(() => api('change-conversation-data', { conversation_id, waiting_response: false }), updated),

    serveAsHuman: () => attempt(() => api('set-conversation-manual', { conversation_id }), updated),

    disableFollowUp: async () => {
      const ok = await confirm({
        title: messages.paneDisableFollowUp,
        message: messages.paneDisableFollowUpConfirm,
      });
      if (ok)
        await attempt(
          () => api('change-conversation-data', { conversation_id, auto_follow_up: false }),
          updated,
        );
    },

    finish: async () => {
      const ok = await confirm({
        title: messages.paneFinish,
        message: messages.paneFinishConfirm,
        danger: true,
      });
      if (!ok) return;
      await attempt(
        () => api('finish-conversation', { conversation_id }),
        (c) => {
          patchConversation(client, c);
          dropConversation(client, c._id);
          onClose();
        },
      );
    },

    resume: () =>
      attempt(
        () => api('resume-conversation', { conversation_id }),
        (c) => {
          patchConversation(client, c);
          // Back in the open lists: where it sorts is the list's to say.
          void client.invalidateQueries({ queryKey: LIST_KEY });
          notifySuccess(messages.conversationResumed);
        },
      ),

    /** After a transfer: an attendant outside the new department no longer sees it. */
    transferred: (c: Conversation) => {
      patchConversation(client, c);
      notifySuccess(messages.conversationUpdated);
      if (!seesDepartment(subjectOfAnswer(user), c.department)) {
        dropConversation(client, c._id);
        onClose();
      }
    },
  };
}
