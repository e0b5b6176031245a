import {
  ActionIcon,
  Badge,
  CloseButton,
  Combobox,
  Group,
  Loader,
  Menu,
  Popover,
  Text,
  Textarea,
  Tooltip,
  useCombobox,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconFileText,
  IconHeadphones,
  IconLibraryPhoto,
  IconMicrophone,
  IconMoodSmile,
  IconMovie,
  IconPaperclip,
  IconPhoto,
  IconSend2,
  IconSignature,
} from '@tabler/icons-react';
import { lazy, memo, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useAppConfig } from '@/app/lib/app-config';
import { useQuickMessages } from '@/app/lib/lists';
import { useIsMobile } from '@/app/ui/use-is-mobile';
import { DEFAULT_MEDIA_MAX_MB } from '@/app/widgets/media/media-rules';
import { SENDABLE_MEDIA } from '@/shared/constants';
import type { MediaType } from '@/shared/contract/conversations';
import type { LibraryMedia } from '@/shared/contract/media';
import { withoutBidiControls } from '@/shared/format';
import { labels, messages } from '@/shared/messages';
import type { Attachment } from '../data/provisional';
import { AiActions } from './AiActions';
import classes from './pane.module.css';
import type { Draft } from './send-message';

// The emoji grid loads when the picker first opens.
const EmojiGrid = lazy(() => import('./EmojiGrid').then((m) => ({ default: m.EmojiGrid })));

const ACCEPT: Record<MediaType, string> = {
  image: SENDABLE_MEDIA.image.join(','),
  audio: 'audio/mpeg,audio/ogg,audio/mp4,audio/aac,.mp3,.ogg,.m4a,.aac',
  video: SENDABLE_MEDIA.video.join(','),
  document: '.pdf,.txt,.doc,.docx,.xls,.xlsx,.ppt,.pptx',
};

const ATTACHMENTS: { type: MediaType; label: string; icon: typeof IconPhoto; color: string }[] = [
  { type: 'image', label: messages.image, icon: IconPhoto, color: '#bf59cf' },
  { type: 'audio', label: messages.audio, icon: IconHeadphones, color: '#e5533d' },
  { type: 'video', label: messages.video, icon: IconMovie, color: '#0795dc' },
  { type: 'document', label: messages.document, icon: IconFileText, color: '#7f66ff' },
];

/** The shortcut being typed: '/' at the start and no space yet. */
export const quickQuery = (text: string) => /^\/(\S*)$/.exec(text)?.[1]?.toLowerCase() ?? null;

// Loaded when first opened: the media library, and the recorder with its MP3 worker.
const MediaLibraryDialog = lazy(() => import('@/app/widgets/media/MediaLibraryDialog'));
const AudioRecorderDialog = lazy(() => import('@/app/widgets/media/audio/AudioRecorderDialog'));

function attachmentOf(file: File, type: MediaType, maxMb: number): Attachment | null {
  if (file.size > maxMb * 1024 * 1024) {
    notifications.show({ color: 'red', message: messages.mediaTooLarge(maxMb) });
    return null;
  }
  return { file, type, preview: type === 'image' ? URL.createObjectURL(file) : null };
}

interface Props {
  /** The user's signature is on: the server puts their name before the text. */
  signature: boolean;
  onSend(draft: Draft): Promise<boolean>;
  /** For the AI summary and follow-up. */
  conversationId: string;
}

/**
 * The command bar (spec 2 §5 Message box): Enter sends on a desktop and Shift+Enter adds a line; on a phone
 * Enter adds a line and the button sends. '/' at the start opens the quick messages, filtered by shortcut.
 * A pasted image becomes the attachment.
 */
// Memoized: a page of older messages arriving must not re-measure the autosize textarea.
export const Composer = memo(function Composer({ signature, onSend, conversationId }: Props) {
  const mobile = useIsMobile();
  const [text, setText] = useState('');
  const [attachment, setAttachment] = useState<Attachment | null>(null);
  const [dismissed, setDismissed] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);
  /** An emoji where the caret is (or over the selection); the caret goes after it. */
  const insertEmoji = (emoji: string) => {
    const el = box.current;
    const start = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? text.length;
    setText(text.slice(0, start) + emoji + text.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + emoji.length, start + emoji.length);
    });
  };
  const fileInput = useRef<HTMLInputElement>(null);
  const fileType = useRef<MediaType>('image');
  const quick = useQuickMessages();
  const combobox = useCombobox();
  const maxMb = useAppConfig()?.media_max_mb ?? DEFAULT_MEDIA_MAX_MB;
  const [dialog, setDialog] = useState<'library' | 'recorder' | 'voice' | null>(null);

  const query = quickQuery(text);
  const options = useMemo(
    () =>
      query === null
        ? []
        : (quick.data ?? [])
            .filter((q) => !q.filed && q.shortcut.toLowerCase().includes(query))
            .sort((a, b) => a.shortcut.localeCompare(b.shortcut, 'pt-BR')),
    [query, quick.data],
  );
  const menuOpen = query !== null && !dismissed;
  // Each '/' asks for the list again: one created meanwhile (by a manager, in another tab) is offered at once.
  const refetchQuick = quick.refetch;
  useEffect(() => {
    if (menuOpen) void refetchQuick();
  }, [menuOpen, refetchQuick]);

  useEffect(() => {
    if (menuOpen) {
      combobox.openDropdown();
      // The first match is ready for Enter.
      requestAnimationFrame(() => combobox.selectFirstOption());
    } else combobox.closeDropdown();
  }, [menuOpen, combobox.openDropdown, combobox.closeDropdown, combobox.selectFirstOption]);

  // The first match is ready for Enter, whenever the matches change.
  const matches = options.map((q) => q._id).join();
  useEffect(() => {
    if (menuOpen && matches) requestAnimationFrame(() => combobox.selectFirstOption());
  }, [matches, menuOpen, combobox.selectFirstOption]);

  function choose(id: string) {
    const chosen = quick.data?.find((q) => q._id === id);
    if (chosen) setText(chosen.message);
    combobox.closeDropdown();
    box.current?.focus();
  }

  function clearAttachment() {
    if (attachment?.preview) URL.revokeObjectURL(attachment.preview);
    setAttachment(null);
  }

  function submit() {
    const draft: Draft = { text, attachment };
    if (!draft.text.trim() && !draft.attachment) return;
    setText('');
    setAttachment(null);
    box.current?.focus();
    // Audio goes without a caption (WhatsApp drops it): the text follows as its own message.
    const sends =
      attachment?.type === 'audio' && text.trim()
        ? [
            { text: '', attachment },
            { text, attachment: null },
          ]
        : [draft];
    void (async () => {
      for (const one of sends) {
        const ok = await onSend(one);
        // Refused: the text comes back to the box, unless something new was typed meanwhile.
        if (!ok) {
          if (one.text.trim()) setText((current) => current || one.text);
          return;
        }
      }
    })();
  }

  // A library item or a recording goes at once, on its own (audio has no caption). A recorded voice message
  // goes as a voice note.
  function sendStored(item: LibraryMedia) {
    setDialog(null);
    void onSend({
      text: '',
      attachment: null,
      stored: { type: item.type, url: item.url, file_name: item.name },
      ptt: item.ptt,
    });
  }

  // A recording already saved to the library is sent by its library address, not uploaded again.
  function sendRecording(recording: File | LibraryMedia) {
    if (!(recording instanceof File)) return sendStored(recording);
    void onSend({ text: '', attachment: { file: recording, type: 'audio', preview: null }, ptt: true });
  }

  function pick(type: MediaType) {
    const input = fileInput.current;
    if (!input) return;
    fileType.current = type;
    input.accept = ACCEPT[type];
    input.value = '';
    input.click();
  }

  function picked(e: React.ChangeEvent<HTMLInputElement>) {
    const file = e.currentTarget.files?.[0];
    e.currentTarget.value = '';
    if (!file) return;
    const next = attachmentOf(file, fileType.current, maxMb);
    if (next) {
      clearAttachment();
      setAttachment(next);
    }
  }

  function pasted(e: React.ClipboardEvent<HTMLTextAreaElement>) {
    const image = Array.from(e.clipboardData.files).find((f) => f.type.startsWith('image/'));
    if (!image) return;
    e.preventDefault();
    const named =
      image.name && image.name !== 'image.png'
        ? image
        : new File([image], `imagem-colada-${Date.now()}.png`, { type: image.type });
    const next = attachmentOf(named, 'image', maxMb);
    if (next) {
      clearAttachment();
      setAttachment(next);
    }
  }

  return (
    <div className={classes.composer}>
      {signature && (
        <Tooltip label={messages.paneSignatureHint} withArrow>
          <Badge
            size="sm"
            variant="light"
            color="green"
            leftSection={<IconSignature size={12} aria-hidden />}
            mb={6}
            tabIndex={0}
          >
            {messages.paneSignatureActive}
          </Badge>
        </Tooltip>
      )}
      {attachment && (
        <div>
          <div className={classes.attachment}>
            {attachment.preview ? (
              <img
                className={classes.attachmentThumb}
                src={attachment.preview}
                alt={withoutBidiControls(attachment.file.name)}
              />
            ) : (
              <IconFileText size={28} color="#7f66ff" aria-hidden />
            )}
            <Text size="sm" lineClamp={1} style={{ minWidth: 0, maxWidth: 220 }}>
              {withoutBidiControls(attachment.file.name)}
            </Text>
            <CloseButton size="sm" aria-label={messages.paneRemoveAttachment} onClick={clearAttachment} />
          </div>
        </div>
      )}
      <div className={classes.composerRow}>
        <Menu position="top-start" shadow="md" width={220}>
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" size={40} radius="xl" aria-label={messages.attach}>
              <IconPaperclip size={22} aria-hidden />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            {ATTACHMENTS.map(({ type, label, icon: Icon, color }) => (
              <Menu.Item
                key={type}
                leftSection={<Icon size={18} color={color} aria-hidden />}
                onClick={() => pick(type)}
              >
                {label}
              </Menu.Item>
            ))}
            <Menu.Item
              leftSection={<IconMicrophone size={18} color="#e5533d" aria-hidden />}
              onClick={() => setDialog('recorder')}
            >
              {messages.recorderTitle}
            </Menu.Item>
            <Menu.Item
              leftSection={<IconLibraryPhoto size={18} aria-hidden />}
              onClick={() => setDialog('library')}
            >
              {messages.mediaLibraryTitle}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
        {!mobile && (
          // Where WhatsApp has it, beside the attachments.
          <Popover position="top-start" shadow="md" width={300}>
            <Popover.Target>
              <ActionIcon variant="subtle" color="gray" size={40} radius="xl" aria-label={messages.paneEmoji}>
                <IconMoodSmile size={22} aria-hidden />
              </ActionIcon>
            </Popover.Target>
            <Popover.Dropdown>
              <Suspense fallback={<Loader size="sm" aria-label={messages.paneEmoji} />}>
                <EmojiGrid onPick={insertEmoji} />
              </Suspense>
            </Popover.Dropdown>
          </Popover>
        )}
        <AiActions
          conversationId={conversationId}
          onFollowUp={(followUp) => {
            setText(followUp);
            box.current?.focus();
          }}
        />
        <input ref={fileInput} type="file" hidden onChange={picked} aria-hidden tabIndex={-1} />
        {dialog && (
          <Suspense fallback={null}>
            {dialog === 'library' ? (
              <MediaLibraryDialog opened onClose={() => setDialog(null)} onPick={sendStored} />
            ) : (
              <AudioRecorderDialog
                opened
                autoStart={dialog === 'voice'}
                onClose={() => setDialog(null)}
                onSend={sendRecording}
              />
            )}
          </Suspense>
        )}
        <Combobox
          store={combobox}
          onOptionSubmit={choose}
          position="top-start"
          withinPortal
          // Wider than the text box on a phone: the previews need the room.
          width={mobile ? 'calc(100vw - 16px)' : 440}
          middlewares={{ flip: false, shift: true }}
        >
          <Combobox.Target>
            <Textarea
              ref={box}
              aria-label={labels.common.message}
              placeholder={mobile ? messages.paneComposerPlaceholderShort : messages.paneComposerPlaceholder}
              autosize
              minRows={1}
              maxRows={6}
              radius="lg"
              style={{ flex: 1, minWidth: 0 }}
              value={text}
              maxLength={4096}
              onChange={(e) => {
                setText(e.currentTarget.value);
                setDismissed(false);
              }}
              onPaste={pasted}
              onKeyDown={(e) => {
                if (e.key === 'Escape' && menuOpen) setDismissed(true);
                if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return;
                // The quick-messages menu takes Enter to choose.
                if (menuOpen && options.length > 0) return;
                if (mobile) return;
                e.preventDefault();
                submit();
              }}
            />
          </Combobox.Target>
          <Combobox.Dropdown>
            <Combobox.Header>
              <Text size="xs" fw={600} c="dimmed">
                {labels.common.quickMessages}
              </Text>
            </Combobox.Header>
            <Combobox.Options
              aria-label={labels.common.quickMessages}
              mah={260}
              style={{ overflowY: 'auto' }}
            >
              {options.length === 0 ? (
                <Combobox.Empty>{messages.paneNoQuickMessages}</Combobox.Empty>
              ) : (
                options.map((q) => (
                  <Combobox.Option key={q._id} value={q._id} className={classes.quickOption}>
                    <Group gap={6} wrap="nowrap">
                      <Text size="sm" fw={600} style={{ flexShrink: 0 }}>
                        /{q.shortcut}
                      </Text>
                      <Text size="sm" c="dimmed" lineClamp={1}>
                        {q.message}
                      </Text>
                    </Group>
                  </Combobox.Option>
                ))
              )}
            </Combobox.Options>
          </Combobox.Dropdown>
        </Combobox>
        {!text.trim() && !attachment ? (
          // Nothing to send yet: the microphone, as in WhatsApp (opens the recorder already recording).
          <ActionIcon
            size={40}
            radius="xl"
            color="#00a884"
            aria-label={messages.recorderTitle}
            onClick={() => setDialog('voice')}
          >
            <IconMicrophone size={20} aria-hidden />
          </ActionIcon>
        ) : (
          <ActionIcon size={40} radius="xl" color="#00a884" aria-label={messages.send} onClick={submit}>
            <IconSend2 size={20} aria-hidden />
          </ActionIcon>
        )}
      </div>
    </div>
  );
});
