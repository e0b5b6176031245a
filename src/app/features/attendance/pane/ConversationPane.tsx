// The service screen's right column (spec 2 §2.3): the selected conversation with its header, message area
// and command bar. On phones the page shows it in a full-screen dialog; the header's back button closes it.
import { Alert, Button, Center, Loader, Stack, Text } from '@mantine/core';
import { IconArrowLeft, IconPlayerPlay, IconWifiOff } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useState } from 'react';
import { api, errorMessage } from '@/app/lib/api';
import { notifyError, notifyInfo } from '@/app/lib/notify';
import { useOnline } from '@/app/lib/online';
import { useCurrentUser } from '@/app/lib/user';
import { confirm } from '@/app/ui/confirm';
import { displayName } from '@/app/ui/contact-name';
import { lazyDialog } from '@/app/ui/lazy-dialog';
import { useIsMobile } from '@/app/ui/use-is-mobile';
import type { Conversation } from '@/shared/contract/conversations';
import { messages } from '@/shared/messages';
import { seesDepartment, subjectOfAnswer } from '@/shared/rules/access';
import { useConversationActions } from '../actions/conversation-actions';
import { dropConversation, useConversation } from '../data/conversations';
import { loadOlder, putMessage, useMessages } from '../data/messages';
import type { PaneMessage } from '../data/provisional';
import { Composer } from './Composer';
import type { BubbleActions } from './MessageBubble';
import { MessageList } from './MessageList';
import { PaneHeader } from './PaneHeader';
import classes from './pane.module.css';
import { buildRows, type RowCache } from './pane-view';
import { useSendMessage } from './send-message';
import { useLiveConversation } from './use-live-conversation';

interface Props {
  conversationId: string;
  onClose(): void;
}

const ImageViewer = lazyDialog(
  () => import('./ImageViewer').then((m) => m.ImageViewer),
  (props) => props.image !== null,
);

export function ConversationPane({ conversationId, onClose }: Props) {
  const conversation = useConversation(conversationId);
  if (conversation.isPending)
    return (
      <div className={classes.pane}>
        <Center h="100%">
          <Loader size="sm" aria-label={messages.paneLoading} />
        </Center>
      </div>
    );
  if (!conversation.data)
    return (
      <div className={classes.pane}>
        <Stack p="md" align="flex-start">
          <Button variant="subtle" leftSection={<IconArrowLeft size={18} aria-hidden />} onClick={onClose}>
            {messages.back}
          </Button>
          <Alert color="red" role="alert" w="100%">
            {conversation.isError ? errorMessage(conversation.error) : messages.notFound}
          </Alert>
        </Stack>
      </div>
    );
  return <Pane key={conversationId} conversation={conversation.data} onClose={onClose} />;
}

function Pane({ conversation, onClose }: { conversation: Conversation; onClose(): void }) {
  const client = useQueryClient();
  const user = useCurrentUser();
  const id = conversation._id;
  const list = useMessages(id);
  const send = useSendMessage(id);
  const actions = useConversationActions(conversation, onClose);
  const [image, setImage] = useState<{ url: string; alt: string } | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [followSignal, setFollowSignal] = useState(0);

  const { typing } = useLiveConversation(id, {
    onFinished: (by) => {
      if (by !== user._id) notifyInfo(messages.finishedByAnotherUser);
      dropConversation(client, id);
      onClose();
    },
    onUpdated: (c, by) => {
      // An attendant no longer sees a conversation moved out of their departments: told so when another
      // user moved it (their own transfer says 'Conversa atualizada').
      if (!seesDepartment(subjectOfAnswer(user), c.department)) {
        if (by !== user._id) notifyInfo(messages.transferredByAnotherUser);
        dropConversation(client, id);
        onClose();
      }
    },
  });

  const bubbleActions = useMemo<BubbleActions>(
    () => ({
      onOpenImage: (url, alt) => setImage({ url, alt }),
      onDelete: async (message: PaneMessage) => {
        const ok = await confirm({
          title: messages.paneDeleteMessage,
          message: messages.paneDeleteMessageConfirm,
          danger: true,
        });
        if (!ok) return;
        try {
          putMessage(client, await api('delete-conversation-message', { _id: message._id }));
        } catch (err) {
          notifyError(err);
        }
      },
    }),
    [client],
  );

  const onLoadOlder = useCallback(() => {
    setLoadingOlder(true);
    loadOlder(client, id)
      .catch(notifyError)
      .finally(() => setLoadingOlder(false));
  }, [client, id]);

  const onSend = useCallback(
    (draft: Parameters<typeof send>[0]) => {
      const sent = send(draft);
      setFollowSignal((n) => n + 1);
      return sent;
    },
    [send],
  );

  const data = list.data;
  const rowCache = useRef<RowCache>(new Map());
  const rows = useMemo(
    () => (data ? buildRows(data.messages, data.hasOlder, new Date(), rowCache.current) : []),
    [data],
  );
  const finished = conversation.finished !== null;
  // On a phone the full-screen pane hides the shell's offline banner: the pane says it itself.
  const online = useOnline();
  const mobile = useIsMobile();

  return (
    <section className={classes.pane} aria-label={displayName(conversation.contact)}>
      <PaneHeader conversation={conversation} onClose={onClose} />
      {!online && mobile && (
        <Alert
          color="yellow"
          radius={0}
          py={6}
          icon={<IconWifiOff size={16} aria-hidden />}
          role="status"
          style={{ flex: 'none' }}
        >
          {messages.offline}
        </Alert>
      )}
      {list.isPending ? (
        <Center style={{ flex: 1 }}>
          <Loader size="sm" aria-label={messages.paneLoading} />
        </Center>
      ) : list.isError && !data ? (
        <Stack p="md" style={{ flex: 1 }}>
          <Alert color="red" role="alert">
            {messages.paneLoadFailed} {errorMessage(list.error)}
          </Alert>
        </Stack>
      ) : (
        <MessageList
          rows={rows}
          me={user._id}
          actions={bubbleActions}
          loadingOlder={loadingOlder}
          onLoadOlder={onLoadOlder}
          typing={typing}
          followSignal={followSignal}
        />
      )}
      {finished ? (
        <div className={classes.composer}>
          <Stack gap={6} align="center">
            <Text size="sm" c="dimmed" ta="center">
              {messages.conversationFinishedHint}
            </Text>
            <Button
              size="xs"
              variant="light"
              leftSection={<IconPlayerPlay size={16} aria-hidden />}
              onClick={() => void actions.resume()}
            >
              {messages.paneResume}
            </Button>
          </Stack>
        </div>
      ) : (
        <Composer signature={user.config.user_signature} onSend={onSend} conversationId={id} />
      )}
      <ImageViewer image={image} onClose={() => setImage(null)} />
    </section>
  );
}
