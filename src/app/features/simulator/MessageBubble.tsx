import { Button, VisuallyHidden } from '@mantine/core';
import { IconAlertCircle, IconBan, IconCheck, IconClock } from '@tabler/icons-react';
import { AudioPlayer, clockTime, DocumentLink, LocationCard } from '@/app/ui/message-parts';
import type { SimulatorMessage } from '@/shared/contract/chips';
import { withoutBidiControls } from '@/shared/format';
import { labels, messages } from '@/shared/messages';
import type { Bubble } from './chat-state';
import { type MenuChoice, MenuReplies } from './MenuReplies';
import classes from './simulator.module.css';

function Content({ message, onMediaLoad }: { message: SimulatorMessage; onMediaLoad(): void }) {
  const caption = message.text ? <div className={classes.text}>{message.text}</div> : null;
  const url = message.media_url;
  switch (message.type) {
    case 'image':
      return (
        <>
          {url && (
            <img
              className={classes.media}
              src={url}
              alt={message.file_name ? withoutBidiControls(message.file_name) : messages.image}
              onLoad={onMediaLoad}
            />
          )}
          {caption}
        </>
      );
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
          {url && (
            // biome-ignore lint/a11y/useMediaCaption: a customer's video has no captions
            <video
              className={classes.media}
              controls
              preload="metadata"
              src={url}
              onLoadedData={onMediaLoad}
            />
          )}
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
      return message.location ? <LocationCard place={message.location} text={message.text} /> : caption;
    default:
      return <div className={classes.text}>{message.text}</div>;
  }
}

interface Props {
  bubble: Bubble;
  chipName: string;
  onRetry(id: string): void;
  onMediaLoad(): void;
  /** A tap on an option of the business's menu; `menuDisabled` while the chip is offline. */
  onChoose(choice: MenuChoice): void;
  menuDisabled: boolean;
}

/** One message on the customer's phone: theirs (the customer's) on the right, the business's on the left. */
export function MessageBubble({ bubble, chipName, onRetry, onMediaLoad, onChoose, menuDisabled }: Props) {
  const { message, deleted, outgoing } = bubble;
  const mine = !message.from_me;
  const unread = message.from_me && !deleted && message.status < 4;
  const failed = outgoing?.error ?? null;
  const sending = Boolean(outgoing) && !failed;
  const rowClass = [classes.row, mine ? classes.mine : classes.theirs, unread && classes.unread]
    .filter(Boolean)
    .join(' ');
  return (
    <li className={rowClass} data-message-id={message.id}>
      <div className={classes.bubble}>
        <VisuallyHidden>{mine ? messages.listYou : `${chipName}:`}</VisuallyHidden>
        {deleted ? (
          <div className={classes.deleted}>
            <IconBan size={14} aria-hidden />
            {messages.listDeletedMessage}
          </div>
        ) : (
          <Content message={message} onMediaLoad={onMediaLoad} />
        )}
        <div className={classes.meta}>
          {unread && <span className={classes.newBadge}>{labels.simulator.unread}</span>}
          <span>{clockTime(message.created)}</span>
          {mine &&
            (failed ? (
              <IconAlertCircle
                size={14}
                color="var(--mantine-color-red-7)"
                role="img"
                aria-label={messages.statusNotSent}
              />
            ) : sending ? (
              <IconClock size={13} role="img" aria-label={messages.statusSending} />
            ) : (
              <IconCheck size={14} role="img" aria-label={messages.statusSent} />
            ))}
        </div>
      </div>
      {message.from_me && message.interactive && !deleted && (
        <MenuReplies menu={message.interactive} disabled={menuDisabled} onChoose={onChoose} />
      )}
      {failed && (
        <div className={classes.failure} role="alert">
          <span>{failed}</span>
          <Button
            size="compact-xs"
            variant="white"
            color="red"
            style={{ flexShrink: 0 }}
            onClick={() => onRetry(message.id)}
          >
            {labels.common.tryAgain}
          </Button>
        </div>
      )}
    </li>
  );
}
