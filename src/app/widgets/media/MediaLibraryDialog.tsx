// The media library dialog (spec 2 §2.5): tabs Imagens, Áudios, Vídeos, Documentos; an upload with a
// required name; deletion in two clicks (Apagar, then Confirmar). Opened from a conversation it is also the
// media picker: Enviar sends the item into it.
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Center,
  FileInput,
  Group,
  Loader,
  Stack,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import { IconFileText, IconMicrophone, IconMovie, IconPhoto, IconUpload } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, errorMessage, upload } from '@/app/lib/api';
import { useAppConfig } from '@/app/lib/app-config';
import { notifyError, notifySuccess } from '@/app/lib/notify';
import { callQuery } from '@/app/lib/query';
import { Dialog } from '@/app/ui/Dialog';
import { FormError } from '@/app/ui/FormParts';
import type { MediaType } from '@/shared/contract/conversations';
import type { LibraryMedia } from '@/shared/contract/media';
import { withoutBidiControls } from '@/shared/format';
import { labels, messages } from '@/shared/messages';
import { DEFAULT_MEDIA_MAX_MB, libraryFileError, mediaListKey } from './media-rules';

const TABS: { type: MediaType; label: string }[] = [
  { type: 'image', label: messages.mediaTabImages },
  { type: 'audio', label: messages.mediaTabAudios },
  { type: 'video', label: messages.mediaTabVideos },
  { type: 'document', label: messages.mediaTabDocuments },
];

/** What the file chooser offers per tab; the server checks the content anyway. */
const ACCEPT: Record<MediaType, string> = {
  image: 'image/jpeg,image/png',
  audio: 'audio/mpeg,.mp3',
  video: 'video/mp4,video/3gpp,.mp4,.3gp',
  document: 'text/plain,application/pdf,.txt,.pdf,.doc,.docx,.xls,.xlsx,.ppt,.pptx',
};

interface Props {
  opened: boolean;
  onClose(): void;
  /** The media picker: sends the chosen item into the open conversation. */
  onPick?(item: LibraryMedia): void;
}

export default function MediaLibraryDialog({ opened, onClose, onPick }: Props) {
  const [tab, setTab] = useState<MediaType>('image');
  return (
    <Dialog opened={opened} onClose={onClose} title={messages.mediaLibraryTitle} size="lg">
      <Tabs value={tab} onChange={(v) => v && setTab(v as MediaType)} keepMounted={false}>
        <Tabs.List grow style={{ flexWrap: 'nowrap' }}>
          {TABS.map((t) => (
            <Tabs.Tab key={t.type} value={t.type} px={6}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {TABS.map((t) => (
          <Tabs.Panel key={t.type} value={t.type} pt="md">
            <Stack gap="md">
              <UploadForm type={t.type} />
              <MediaList type={t.type} onPick={onPick} />
            </Stack>
          </Tabs.Panel>
        ))}
      </Tabs>
    </Dialog>
  );
}

function UploadForm({ type }: { type: MediaType }) {
  const client = useQueryClient();
  const maxMb = useAppConfig()?.media_max_mb ?? DEFAULT_MEDIA_MAX_MB;
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const problem = libraryFileError(file, name, maxMb);
    setError(problem);
    if (problem || !file) return;
    setBusy(true);
    try {
      await upload('upload-media', file, file.name, { type, name: name.trim() });
      notifySuccess(messages.uploadDone);
      setFile(null);
      setName('');
      await client.invalidateQueries({ queryKey: mediaListKey });
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="xs">
        <Group align="flex-end" gap="xs" wrap="wrap">
          <FileInput
            label={messages.mediaFileLabel}
            placeholder={messages.mediaFilePlaceholder}
            accept={ACCEPT[type]}
            value={file}
            onChange={setFile}
            clearable
            leftSection={<IconUpload size={16} aria-hidden />}
            style={{ flex: '1 1 180px', minWidth: 0 }}
          />
          <TextInput
            label={labels.common.name}
            value={name}
            maxLength={120}
            onChange={(e) => setName(e.currentTarget.value)}
            style={{ flex: '1 1 160px' }}
          />
          <Button type="submit" loading={busy}>
            {messages.mediaUpload}
          </Button>
        </Group>
        <FormError message={error} />
      </Stack>
    </form>
  );
}

const ICONS: Record<MediaType, typeof IconPhoto> = {
  image: IconPhoto,
  audio: IconMicrophone,
  video: IconMovie,
  document: IconFileText,
};

function MediaList({ type, onPick }: { type: MediaType; onPick?: Props['onPick'] }) {
  const client = useQueryClient();
  const list = useQuery(callQuery('get-medias-by-user', { type }));
  // Deleting takes two clicks: Apagar arms the item, Confirmar deletes it.
  const [armed, setArmed] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);

  async function remove(item: LibraryMedia) {
    setDeleting(item._id);
    try {
      await api('delete-media', { _id: item._id });
      notifySuccess(messages.mediaDeleted);
      await client.invalidateQueries({ queryKey: mediaListKey });
    } catch (err) {
      notifyError(err);
    } finally {
      setDeleting(null);
      setArmed(null);
    }
  }

  if (list.isPending)
    return (
      <Center py="md">
        <Loader size="sm" />
      </Center>
    );
  if (list.isError)
    return (
      <Alert color="red" role="alert">
        {errorMessage(list.error)}
      </Alert>
    );
  if (list.data.length === 0)
    return (
      <Text size="sm" c="dimmed" ta="center" py="md">
        {messages.mediaEmpty}
      </Text>
    );
  const Icon = ICONS[type];
  return (
    <Stack
      gap={0}
      component="ul"
      aria-label={messages.mediaLibraryTitle}
      style={{ listStyle: 'none', padding: 0, margin: 0 }}
    >
      {list.data.map((item) => (
        <Group
          key={item._id}
          component="li"
          aria-label={withoutBidiControls(item.name)}
          gap="sm"
          py="xs"
          wrap="nowrap"
          style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
        >
          {type === 'image' ? (
            <img
              src={item.url}
              alt=""
              width={48}
              height={48}
              style={{ objectFit: 'cover', borderRadius: 6, flexShrink: 0 }}
            />
          ) : (
            <ActionIcon
              component="a"
              href={item.url}
              target="_blank"
              rel="noreferrer"
              variant="light"
              size={48}
              aria-label={`${messages.mediaOpen} ${withoutBidiControls(item.name)}`}
            >
              <Icon size={24} aria-hidden />
            </ActionIcon>
          )}
          <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
            <Group gap={6} wrap="nowrap">
              <Text size="sm" fw={500} truncate>
                {withoutBidiControls(item.name)}
              </Text>
              {item.ptt && (
                <Badge size="xs" variant="light" color="teal">
                  {messages.mediaVoice}
                </Badge>
              )}
            </Group>
            {type === 'audio' && (
              // biome-ignore lint/a11y/useMediaCaption: a voice recording has no captions
              <audio
                controls
                preload="none"
                src={item.url}
                style={{ width: '100%', maxWidth: 260, height: 32 }}
              />
            )}
          </Stack>
          <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
            {onPick && (
              <Button size="xs" onClick={() => onPick(item)}>
                {messages.send}
              </Button>
            )}
            {armed === item._id ? (
              <Button size="xs" color="red" loading={deleting === item._id} onClick={() => void remove(item)}>
                {labels.common.confirm}
              </Button>
            ) : (
              <Button size="xs" variant="light" color="red" onClick={() => setArmed(item._id)}>
                {labels.common.delete}
              </Button>
            )}
          </Group>
        </Group>
      ))}
    </Stack>
  );
}
