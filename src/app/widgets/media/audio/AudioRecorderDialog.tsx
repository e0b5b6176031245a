// The audio recording dialog (spec 2 §2.5, §4): idle → recording (elapsed time, cancel) → recorded
// (playable, re-record, send). The recording is MP3 at 128 kbps, encoded in a Web Worker. Enviar hands the
// file to the conversation's send as a voice note; Salvar na biblioteca keeps it in the media library as a
// voice message, and a recording saved there is then sent by its library address (not uploaded again).
import { Alert, Button, Center, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { IconMicrophone, IconPlayerStopFilled, IconRefresh, IconSend2 } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { upload } from '@/app/lib/api';
import { useAppConfig } from '@/app/lib/app-config';
import { useFormMutation } from '@/app/lib/mutation';
import { notifySuccess } from '@/app/lib/notify';
import { Dialog } from '@/app/ui/Dialog';
import type { LibraryMedia } from '@/shared/contract/media';
import { labels, messages } from '@/shared/messages';
import { DEFAULT_MEDIA_MAX_MB, mediaListKey, microphoneError } from '../media-rules';
import { type Recording, startRecording, toMp3 } from './record';

type State =
  | { step: 'idle' }
  | { step: 'starting' }
  | { step: 'recording'; started: number }
  | { step: 'encoding' }
  | { step: 'recorded'; mp3: Blob; url: string; seconds: number; saved?: LibraryMedia };

/** 75 → '01:15'. */
export const clock = (seconds: number) => {
  const s = Math.max(0, Math.floor(seconds));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};

const fileName = () =>
  `audio-${new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-')}.mp3`;

interface Props {
  opened: boolean;
  onClose(): void;
  /** Sends the recording into the conversation: the MP3, or the library item it was saved as. */
  onSend(recording: File | LibraryMedia): void;
  /** Opened by the composer's microphone: it starts recording at once (as WhatsApp's does). */
  autoStart?: boolean;
}

export default function AudioRecorderDialog({ opened, onClose, onSend, autoStart }: Props) {
  return (
    <Dialog opened={opened} onClose={onClose} title={messages.recorderTitle} size="md">
      {opened && <Recorder onClose={onClose} onSend={onSend} autoStart={autoStart} />}
    </Dialog>
  );
}

function Recorder({ onClose, onSend, autoStart }: Omit<Props, 'opened'>) {
  const client = useQueryClient();
  const [state, setState] = useState<State>({ step: 'idle' });
  const { saving, error, setError, save: run } = useFormMutation();
  const [now, setNow] = useState(Date.now());
  const [name, setName] = useState('');
  const maxMb = useAppConfig()?.media_max_mb ?? DEFAULT_MEDIA_MAX_MB;
  const recording = useRef<Recording | null>(null);
  const url = state.step === 'recorded' ? state.url : null;

  // Leaving the dialog ends the microphone and frees the recording.
  useEffect(() => () => recording.current?.cancel(), []);
  useEffect(() => (url ? () => URL.revokeObjectURL(url) : undefined), [url]);
  useEffect(() => {
    if (state.step !== 'recording') return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [state.step]);
  // At 128 kbps (16 kB a second) the upload limit is reached after this long: the recording stops there.
  const maxSeconds = Math.floor((maxMb * 1024 * 1024) / 16_000) - 1;
  const elapsed = state.step === 'recording' ? (now - state.started) / 1000 : 0;
  const stopRef = useRef<() => void>(() => undefined);
  useEffect(() => {
    if (elapsed >= maxSeconds) stopRef.current();
  }, [elapsed, maxSeconds]);

  async function start() {
    setError(null);
    setState({ step: 'starting' });
    try {
      recording.current = await startRecording();
      setNow(Date.now());
      setState({ step: 'recording', started: Date.now() });
    } catch (err) {
      setError(microphoneError(err));
      setState({ step: 'idle' });
    }
  }

  async function stop() {
    const current = recording.current;
    recording.current = null;
    if (!current) return;
    setState({ step: 'encoding' });
    try {
      const { mp3, seconds } = await toMp3(await current.stop());
      setState({ step: 'recorded', mp3, url: URL.createObjectURL(mp3), seconds });
    } catch {
      setError(messages.recorderFailed);
      setState({ step: 'idle' });
    }
  }

  stopRef.current = () => void stop();

  // Once, on opening: the microphone tap already said 'record'.
  const startRef = useRef(start);
  useEffect(() => {
    if (autoStart) void startRef.current();
  }, [autoStart]);

  function cancel() {
    recording.current?.cancel();
    recording.current = null;
    setState({ step: 'idle' });
  }

  function send() {
    if (state.step !== 'recorded') {
      setError(messages.mediaRecordingRequired);
      return;
    }
    onSend(state.saved ?? new File([state.mp3], fileName(), { type: 'audio/mpeg' }));
    onClose();
  }

  async function save() {
    if (state.step !== 'recorded') return setError(messages.mediaRecordingRequired);
    if (!name.trim()) return setError(messages.mediaNameRequired);
    await run(async () => {
      const saved = await upload('upload-media', state.mp3, fileName(), {
        type: 'audio',
        name: name.trim(),
        ptt: 'true',
      });
      // Kept with this recording (a new one starts without it): sending it now uses the library's copy.
      setState((current) =>
        current.step === 'recorded' && current.mp3 === state.mp3 ? { ...current, saved } : current,
      );
      notifySuccess(messages.recorderSaved);
      setName('');
      await client.invalidateQueries({ queryKey: mediaListKey });
    });
  }

  return (
    <Stack gap="md">
      {state.step === 'idle' || state.step === 'starting' ? (
        <Stack align="center" gap="sm" py="md">
          <Button
            size="lg"
            radius="xl"
            color="red"
            leftSection={<IconMicrophone size={22} aria-hidden />}
            loading={state.step === 'starting'}
            onClick={() => void start()}
          >
            {messages.recorderStart}
          </Button>
          <Text size="sm" c="dimmed" ta="center">
            {messages.recorderIdleHint}
          </Text>
        </Stack>
      ) : state.step === 'recording' ? (
        <Stack align="center" gap="sm" py="md">
          <Group gap={8} role="status" aria-live="polite">
            <span
              aria-hidden
              style={{ width: 12, height: 12, borderRadius: 6, background: 'var(--mantine-color-red-6)' }}
            />
            <Text fw={600}>{messages.recorderRecording}</Text>
            <Text ff="monospace" fz="xl" aria-label={labels.media.recordingTime}>
              {clock(elapsed)}
            </Text>
          </Group>
          <Group gap="sm">
            <Button variant="default" onClick={cancel}>
              {labels.common.cancel}
            </Button>
            <Button
              color="red"
              leftSection={<IconPlayerStopFilled size={18} aria-hidden />}
              onClick={() => void stop()}
            >
              {messages.stop}
            </Button>
          </Group>
        </Stack>
      ) : state.step === 'encoding' ? (
        <Center py="md">
          <Group gap="sm">
            <Loader size="sm" />
            <Text size="sm">{messages.recorderEncoding}</Text>
          </Group>
        </Center>
      ) : (
        <Stack gap="sm">
          <Group gap="sm" wrap="nowrap">
            {/* biome-ignore lint/a11y/useMediaCaption: a voice recording has no captions */}
            <audio
              controls
              src={state.url}
              aria-label={messages.recorderTitle}
              style={{ flex: 1, minWidth: 0 }}
            />
            <Text ff="monospace" size="sm">
              {clock(state.seconds)}
            </Text>
          </Group>
          <Group gap="xs" align="flex-end" wrap="wrap">
            <TextInput
              label={labels.common.name}
              value={name}
              maxLength={120}
              onChange={(e) => setName(e.currentTarget.value)}
              style={{ flex: '1 1 160px' }}
            />
            <Button variant="light" loading={saving} onClick={() => void save()}>
              {messages.recorderSaveToLibrary}
            </Button>
          </Group>
        </Stack>
      )}
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Button
          px="sm"
          variant="default"
          leftSection={<IconRefresh size={18} aria-hidden />}
          disabled={state.step !== 'recorded'}
          onClick={() => setState({ step: 'idle' })}
        >
          {messages.recorderAgain}
        </Button>
        <Button
          px="sm"
          color="#00a884"
          leftSection={<IconSend2 size={18} aria-hidden />}
          // Only a recording can be sent (spec 2 §2.5's recorded state).
          disabled={state.step !== 'recorded'}
          onClick={send}
        >
          {messages.send}
        </Button>
      </Group>
    </Stack>
  );
}
