import { ActionIcon, Menu, Textarea } from '@mantine/core';
import {
  IconFileText,
  IconHeadphones,
  IconMapPin,
  IconMovie,
  IconPaperclip,
  IconPhoto,
  IconSend2,
} from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useIsMobile } from '@/app/ui/use-is-mobile';
import { labels, messages } from '@/shared/messages';
import { LocationDialog, type Place } from './LocationDialog';
import classes from './simulator.module.css';
import type { Compose } from './use-simulator-chat';

type FileKind = 'image' | 'audio' | 'video' | 'document';

const ACCEPT: Record<FileKind, string> = {
  image: 'image/jpeg,image/png',
  audio: 'audio/*',
  video: 'video/mp4,video/3gpp',
  document: '.pdf,.txt,.doc,.docx,.xls,.xlsx,.ppt,.pptx,.csv',
};

const ATTACHMENTS: { kind: FileKind; label: string; icon: typeof IconPhoto; color: string }[] = [
  { kind: 'image', label: messages.image, icon: IconPhoto, color: '#bf59cf' },
  { kind: 'audio', label: messages.audio, icon: IconHeadphones, color: '#e5533d' },
  { kind: 'document', label: messages.document, icon: IconFileText, color: '#7f66ff' },
  { kind: 'video', label: messages.video, icon: IconMovie, color: '#0795dc' },
];

interface Props {
  disabled: boolean;
  onSend(compose: Compose): void;
}

/** The phone's composer: text (Enter sends on a desktop, adds a line on a phone), files and a location. */
export function Composer({ disabled, onSend }: Props) {
  const isMobile = useIsMobile();
  const [text, setText] = useState('');
  const [locationOpen, setLocationOpen] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const fileKind = useRef<FileKind>('image');

  function sendText() {
    if (disabled || !text.trim()) return;
    onSend({ type: 'text', text });
    setText('');
  }

  function pickFile(kind: FileKind) {
    const input = fileInput.current;
    if (!input) return;
    fileKind.current = kind;
    input.accept = ACCEPT[kind];
    input.value = '';
    input.click();
  }

  function filePicked(e: React.ChangeEvent<HTMLInputElement>) {
    const file = e.currentTarget.files?.[0];
    if (file) onSend({ type: fileKind.current, file });
    e.currentTarget.value = '';
  }

  return (
    <>
      <form
        className={classes.composer}
        onSubmit={(e) => {
          e.preventDefault();
          sendText();
        }}
      >
        <Menu position="top-start" shadow="md" width={200} disabled={disabled}>
          <Menu.Target>
            <ActionIcon
              variant="subtle"
              color="gray"
              size={42}
              radius="xl"
              aria-label={messages.attach}
              disabled={disabled}
            >
              <IconPaperclip size={22} aria-hidden />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            {ATTACHMENTS.map(({ kind, label, icon: Icon, color }) => (
              <Menu.Item
                key={kind}
                leftSection={<Icon size={18} color={color} aria-hidden />}
                onClick={() => pickFile(kind)}
              >
                {label}
              </Menu.Item>
            ))}
            <Menu.Item
              leftSection={<IconMapPin size={18} color="#02a698" aria-hidden />}
              onClick={() => setLocationOpen(true)}
            >
              {messages.location}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
        <input ref={fileInput} type="file" hidden onChange={filePicked} />
        <Textarea
          aria-label={labels.common.message}
          placeholder={disabled ? labels.simulator.channelDisconnected : labels.common.message}
          autosize
          minRows={1}
          maxRows={5}
          radius="xl"
          size="md"
          style={{ flex: 1 }}
          value={text}
          disabled={disabled}
          onChange={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !isMobile && !e.nativeEvent.isComposing) {
              e.preventDefault();
              sendText();
            }
          }}
        />
        <ActionIcon
          type="submit"
          size={42}
          radius="xl"
          color="#00a884"
          aria-label={messages.send}
          disabled={disabled || !text.trim()}
        >
          <IconSend2 size={20} aria-hidden />
        </ActionIcon>
      </form>
      {/* Outside the form: a portal's submit still bubbles to the React parent. */}
      <LocationDialog
        opened={locationOpen}
        onClose={() => setLocationOpen(false)}
        onSend={(location: Place) => onSend({ type: 'location', location })}
      />
    </>
  );
}
