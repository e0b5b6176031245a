import { ActionIcon, Menu, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import {
  IconBan,
  IconChevronDown,
  IconNotes,
  IconRobot,
  IconTrash,
  IconUserCircle,
} from '@tabler/icons-react';
import { memo } from 'react';
import { AudioPlayer, clockTime, DocumentLink, LocationCard } from '@/app/ui/message-parts';
import { WhatsAppText } from '@/app/ui/whatsapp-format';
import { withoutBidiControls } from '@/shared/format';
import { automaticAuthorLabels, labels, messages } from '@/shared/messages';
import type { PaneMessage } from '../data/provisional';
import classes from './pane.module.css';
import { contactCard, replyText, sideOf, tickOf } from './pane-view';
import { Ticks } from './Ticks';

export interface BubbleActions {
  onOpenImage(url: string, alt: string): void;
  onDelete(message: PaneMessage): void;
}

function Text_({ text }: { text: string }) {
  if (!text) return null;
  return (
    <div className={classes.text}>
      <WhatsAppText text={text} />
    </div>
  );
}

function Content({ message, actions }: { message: PaneMessage; actions: BubbleActions }) {
  const url = message.media_url;
  const caption = <Text_ text={message.message} />;
  switch (message.type) {
    case 'image': {
      const alt = message.file_name ? withoutBidiControls(message.file_name) : messages.image;
      return (
        <>
          {url && (
            <UnstyledButton
              aria-label={messages.paneOpenImage}
              onClick={() => actions.onOpenImage(url, alt)}
              style={{ display: 'block' }}
            >
              <img className={classes.thumb} src={url} alt={alt} loading="lazy" decoding="async" />
            </UnstyledButton>
          )}
          {caption}
        </>
      );
    }
    case 'audio':
      return (
        <>
          {url && <AudioPlayer className={classes.audio} url={url} ptt={message.ptt} preload="metadata" />}
          {caption}
        </>
      );
    case 'video':
      return (
        <>
          {/* biome-ignore lint/a11y/useMediaCaption: a customer's video has no captions */}
          {url && <video className={classes.video} controls preload="metadata" src={url} />}
          {caption}
        </>
      );
    case 'document':
      return (
        <>
          <DocumentLink url={url} fileName={message.file_name} />
          {caption}
        </>
      );
    case 'location':
      return message.location ? <LocationCard place={message.location} text={message.message} /> : caption;
    case 'contact': {
      const card = contactCard(message.message);
      return (
        <div className={classes.card}>
          <IconUserCircle size={32} color="#6c7a84" aria-hidden style={{ flexShrink: 0 }} />
          <div>
            <Text size="xs" c="dimmed">
              {messages.contactLabel}
            </Text>
            <Text size="sm" fw={600}>
              {withoutBidiControls(card.name)}
            </Text>
            {card.phones.map((p) => (
              <Text key={p} size="sm">
                {p}
              </Text>
            ))}
          </div>
        </div>
      );
    }
    default:
      return caption;
  }
}

interface Props {
  message: PaneMessage;
  /** The signed-in user: their own messages can be deleted. */
  me: string;
  actions: BubbleActions;
}

/** One message of the area, by origin (customer left; people and chatbots right) and by type. */
export const MessageBubble = memo(function MessageBubble({ message, me, actions }: Props) {
  if (message.type === 'system') {
    return (
      <div className={classes.centre}>
        <div className={classes.system}>{message.message}</div>
      </div>
    );
  }
  if (message.type === 'summary') {
    return (
      <div className={classes.centre}>
        <div className={classes.summary}>
          <div className={classes.author} style={{ color: '#b7791f' }}>
            <IconNotes size={14} aria-hidden />
            {messages.paneSummary}
          </div>
          <Text_ text={message.message} />
          <div className={classes.meta}>{clockTime(message.created)}</div>
        </div>
      </div>
    );
  }
  const side = sideOf(message);
  const chatbot = message.origin === 'chatbot';
  const tick = side === 'team' ? tickOf(message) : null;
  const deletable =
    message.origin === 'user' && message.user === me && !message.deleted && !message.provisional;
  const bubbleClass = [classes.bubble, chatbot && classes.chatbot, message.provisional && classes.provisional]
    .filter(Boolean)
    .join(' ');
  // An automatic message says which engine wrote it (older copies without a source say 'Chatbot').
  const automaticAuthor = message.source ? automaticAuthorLabels[message.source] : labels.common.chatbot;
  const who = side === 'customer' ? messages.customer : chatbot ? automaticAuthor : messages.paneYou;
  return (
    <div className={`${classes.row} ${classes[side]}`}>
      <div className={bubbleClass}>
        {chatbot ? (
          <div className={classes.author}>
            <IconRobot size={14} aria-hidden />
            {automaticAuthor}
          </div>
        ) : (
          <VisuallyHidden>{who}:</VisuallyHidden>
        )}
        {message.reply_message && !message.deleted && (
          <div className={classes.reply}>
            <VisuallyHidden>{messages.paneReplyTo}: </VisuallyHidden>
            {replyText(message.reply_message)}
          </div>
        )}
        {message.deleted ? (
          <div className={classes.deleted}>
            <IconBan size={14} aria-hidden />
            {messages.listDeletedMessage}
          </div>
        ) : (
          <Content message={message} actions={actions} />
        )}
        {message.interactive && !message.deleted && (
          // What the customer was offered (a flow's buttons or list): shown, not tappable here.
          <ul className={classes.menu} aria-label={labels.flowMenus.optionsSent}>
            {message.interactive.options.map((o) => (
              <li key={o.id}>{o.title}</li>
            ))}
          </ul>
        )}
        <div className={classes.meta}>
          <time dateTime={message.typed_at ?? message.created}>
            {clockTime(message.typed_at ?? message.created)}
          </time>
          {tick && !message.deleted && <Ticks tick={tick} />}
        </div>
        {tick === 'failed' && message.failure && (
          <div className={classes.failure} role="alert">
            {message.failure}
          </div>
        )}
      </div>
      {deletable && (
        <Menu position="bottom-end" shadow="md" withinPortal>
          <Menu.Target>
            <ActionIcon
              className={classes.bubbleMenu}
              variant="subtle"
              color="gray"
              size="sm"
              aria-label={messages.paneMessageOptions}
            >
              <IconChevronDown size={16} aria-hidden />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item
              color="red"
              leftSection={<IconTrash size={16} aria-hidden />}
              onClick={() => actions.onDelete(message)}
            >
              {messages.paneDeleteMessage}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      )}
    </div>
  );
});
