// Recording from the microphone: getUserMedia + MediaRecorder while recording, then the recording is
// decoded to mono PCM at 44.1 kHz (an MPEG-1 rate) and encoded to MP3 at 128 kbps in a Web Worker.
import { encodeInWorker } from './encode-in-worker';

export interface Recording {
  /** Ends the recording: what the microphone captured (the browser's own format). */
  stop(): Promise<Blob>;
  /** Ends it and throws it away. */
  cancel(): void;
}

/** Asks for the microphone and starts recording; throws getUserMedia's error (NotAllowedError…). */
export async function startRecording(): Promise<Recording> {
  if (!navigator.mediaDevices?.getUserMedia) throw new DOMException('No microphone API', 'NotSupportedError');
  const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
  const release = () => {
    for (const track of stream.getTracks()) track.stop();
  };
  let recorder: MediaRecorder;
  try {
    recorder = new MediaRecorder(stream);
  } catch (err) {
    release();
    throw err;
  }
  const chunks: Blob[] = [];
  recorder.ondataavailable = (e) => {
    if (e.data.size > 0) chunks.push(e.data);
  };
  recorder.start(250);
  return {
    stop: () =>
      new Promise<Blob>((resolve, reject) => {
        recorder.onstop = () => {
          release();
          resolve(new Blob(chunks, { type: recorder.mimeType }));
        };
        recorder.onerror = () => {
          release();
          reject(new Error('MediaRecorder failed'));
        };
        if (recorder.state === 'inactive') recorder.onstop(new Event('stop'));
        else recorder.stop();
      }),
    cancel() {
      recorder.ondataavailable = null;
      recorder.onstop = null;
      if (recorder.state !== 'inactive') recorder.stop();
      release();
    },
  };
}

export const MP3_RATE = 44100;

/** The recording as MP3: decoded (and resampled) to mono 44.1 kHz, encoded in the worker. */
export async function toMp3(recorded: Blob): Promise<{ mp3: Blob; seconds: number }> {
  const context = new OfflineAudioContext(1, 1, MP3_RATE);
  const audio = await context.decodeAudioData(await recorded.arrayBuffer());
  const pcm = new Float32Array(audio.length);
  for (let c = 0; c < audio.numberOfChannels; c++) {
    const channel = audio.getChannelData(c);
    for (let i = 0; i < pcm.length; i++) pcm[i] = (pcm[i] ?? 0) + (channel[i] ?? 0) / audio.numberOfChannels;
  }
  const seconds = audio.duration;
  return { mp3: await encodeInWorker(pcm, audio.sampleRate), seconds };
}
