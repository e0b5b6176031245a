// Pieces of a chat bubble shared by the service screen and the simulator's phone: an audio player (a voice
// note marked with a microphone), a document to download, a shared location, and a message's clock time.
import { Anchor, Text } from '@mantine/core';
import { IconFileText, IconMapPin, IconMicrophone } from '@tabler/icons-react';
import { withoutBidiControls } from '@/shared/format';
import { messages } from '@/shared/messages';
import classes from './message-parts.module.css';

const pad = (n: number) => String(n).padStart(2, '0');

/** HH:mm in the viewer's time. */
export function clockTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : `${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export const osmLink = (latitude: number, longitude: number) =>
  `https://www.openstreetmap.org/?mlat=${latitude}&mlon=${longitude}#map=16/${latitude}/${longitude}`;

/** An audio message's player; a voice note (recorded, `ptt`) has a microphone mark beside it. */
export function AudioPlayer(props: {
  url: string;
  ptt: boolean;
  className?: string;
  preload: 'none' | 'metadata';
}) {
  // biome-ignore lint/a11y/useMediaCaption: a voice message has no captions
  const player = <audio className={props.className} controls preload={props.preload} src={props.url} />;
  if (!props.ptt) return player;
  return (
    <div className={classes.voice}>
      <span className={classes.voiceMark} role="img" aria-label={messages.paneVoiceNote}>
        <IconMicrophone size={16} aria-hidden />
      </span>
      {player}
    </div>
  );
}

export function DocumentLink({ url, fileName }: { url: string | null; fileName: string | null }) {
  // Names stored before bidi controls were stripped on the server still show as they really read.
  const name = fileName ? withoutBidiControls(fileName) : null;
  return (
    <a
      className={classes.file}
      href={url ?? undefined}
      target="_blank"
      rel="noopener noreferrer"
      download={name ?? true}
    >
      <IconFileText size={28} color="#e5533d" aria-hidden style={{ flexShrink: 0 }} />
      <Text size="sm" fw={500} lineClamp={2}>
        {name ?? messages.document}
      </Text>
    </a>
  );
}

/** A shared place: its name (or the message's text), coordinates and a map link. */
export interface Place {
  latitude: number;
  longitude: number;
  name?: string;
}

export function LocationCard({ place, text }: { place: Place; text: string | null }) {
  return (
    <div className={classes.location}>
      <IconMapPin size={28} color="#e5533d" aria-hidden style={{ flexShrink: 0 }} />
      <div>
        <Text size="sm" fw={600}>
          {place.name || text || messages.location}
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
          {messages.paneSeeOnMap}
        </Anchor>
      </div>
    </div>
  );
}
