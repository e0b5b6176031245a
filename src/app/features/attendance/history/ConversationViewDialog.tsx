// 'Ver conversa' (spec 2 §2.2): the messages of a conversation, read-only, drawn by the pane's own list.
import { Center, Loader } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { errorMessage } from '@/app/lib/api';
import { callQuery } from '@/app/lib/query';
import { displayName } from '@/app/ui/contact-name';
import { Dialog } from '@/app/ui/Dialog';
import { FormError } from '@/app/ui/FormParts';
import type { HistoryConversation } from '@/shared/contract/new-conversation';
import { labels } from '@/shared/messages';
import { MessageList } from '../pane/MessageList';
import classes from '../pane/pane.module.css';
import { buildRows } from '../pane/pane-view';

const NO_ACTIONS = { onOpenImage: () => undefined, onDelete: () => undefined };
const noop = () => undefined;

export function ConversationViewDialog({
  conversation,
  onClose,
}: {
  conversation: HistoryConversation | null;
  onClose(): void;
}) {
  return (
    <Dialog
      opened={conversation !== null}
      onClose={onClose}
      title={conversation ? displayName(conversation.contact) : ''}
      size="lg"
    >
      {conversation && <Messages conversationId={conversation._id} />}
    </Dialog>
  );
}

function Messages({ conversationId }: { conversationId: string }) {
  const query = useQuery(
    callQuery('get-messages-by-conversation', { conversation_id: conversationId, limit: 500 }),
  );
  const rows = useMemo(() => buildRows(query.data ?? [], false), [query.data]);
  if (query.isPending)
    return (
      <Center py="xl">
        <Loader aria-label={labels.common.loading} />
      </Center>
    );
  if (query.error) return <FormError message={errorMessage(query.error)} />;
  return (
    <div className={classes.pane} style={{ height: 'min(70vh, 640px)', borderRadius: 8 }}>
      {/* No 'me': nobody's messages offer delete here. */}
      <MessageList
        rows={rows}
        me=""
        actions={NO_ACTIONS}
        loadingOlder={false}
        onLoadOlder={noop}
        typing={false}
        followSignal={0}
      />
    </div>
  );
}
