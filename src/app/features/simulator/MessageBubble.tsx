import { Anchor, Button, Text, VisuallyHidden } from '@mantine/core';
import {
  IconAlertCircle,
  IconBan,
  IconCheck,
  IconClock,
  IconFileText,
  IconMapPin,
} from '@tabler/icons-react';
import type { SimulatorMessage } from '../../../shared/contract/chips';
import { messages } from '../../../shared/messages';
import type { Bubble } from './chat-state';
import classes from './simulator.module.css';

const pad = (n: number) => String(n).padStart(2, '0');

function clockTime(iso: string) {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : `${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

const osmLink = (latitude: number, longitude: number) =>
  `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=16/${latitude}/${longitude}`;

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
              alt={message.file_name ?? 'Imagem'}
              onLoad={onMediaLoad}
            />
          )}
          {caption}
        </>
      );
    case 'audio':
      return (
        <>
          {/* biome-ignore lint/a11y/useMediaCaption: a customer's voice message has no captions */}
          {url && <audio className={classes.audio} controls preload="metadata" src={url} />}
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
          <a
            className={classes.file}
            href={url ?? undefined}
            target="_blank"
            rel="noopener noreferrer"
            download={message.file_name ?? true}
          >
            <IconFileText size={28} color="#e5533d" aria-hidden />
            <Text size="sm" fw={500} lineClamp={2}>
              {message.file_name ?? 'Documento'}
            </Text>
          </a>
          {caption}
        </>
      );
    case 'location': {
      const place = message.location;
      if (!place) return caption;
      return (
        <div className={classes.location}>
          <IconMapPin size={28} color="#e5533d" aria-hidden style={{ flexShrink: 0 }} />
          <div>
            <Text size="sm" fw={600}>
              {place.name || message.text || 'Localização'}
            </Text>
            <Text size="xs" c="dimmed">
              {place.latitude.toFixed(6)}, {place.longitude.toFixed(6)}
            </Text>
            <Anchor
              size="sm"
              href={osmLink(place.latitude, place.longitude)}
              target="_blank"
              rel="noopener noreferrer"
            >
              Ver no mapa
            </Anchor>
          </div>
        </div>
      );
    }
    default:
      return <div className={classes.text}>{message.text}</div>;
  }
}

interface Props {
  bubble: Bubble;
  chipName: string;
  onRetry(id: string): void;
  onMediaLoad(): void;
}

/** One message on the customer's phone: theirs (the customer's) on the right, the business's on the left. */
export function MessageBubble({ bubble, chipName, onRetry, onMediaLoad }: Props) {
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
        <VisuallyHidden>{mine ? 'Você:' : `${chipName}:`}</VisuallyHidden>
        {deleted ? (
          <div className={classes.deleted}>
            <IconBan size={14} aria-hidden />
            {messages.simulatorDeletedMessage}
          </div>
        ) : (
          <Content message={message} onMediaLoad={onMediaLoad} />
        )}
        <div className={classes.meta}>
          {unread && <span className={classes.newBadge}>Não lida</span>}
          <span>{clockTime(message.created)}</span>
          {mine &&
            (failed ? (
              <IconAlertCircle
                size={14}
                color="var(--mantine-color-red-7)"
                role="img"
                aria-label="Não enviada"
              />
            ) : sending ? (
              <IconClock size={13} role="img" aria-label="Enviando" />
            ) : (
              <IconCheck size={14} role="img" aria-label="Enviada" />
            ))}
        </div>
      </div>
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
            Tentar novamente
          </Button>
        </div>
      )}
    </li>
  );
}
