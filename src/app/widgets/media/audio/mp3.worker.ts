// The MP3 encoder's Web Worker: the recording's PCM comes in, the MP3 file's bytes go back (transferred),
// so the UI never blocks while encoding.
import { encodeMp3 } from './mp3-encoder';

export interface EncodeRequest {
  pcm: Float32Array;
  sampleRate: number;
}
export type EncodeAnswer = { mp3: ArrayBuffer; ms: number } | { error: string };

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<EncodeRequest>) => void) | null;
  postMessage(message: EncodeAnswer, transfer?: Transferable[]): void;
};

scope.onmessage = (e) => {
  try {
    const started = performance.now();
    const mp3 = encodeMp3(e.data.pcm, e.data.sampleRate);
    const buffer = mp3.buffer as ArrayBuffer;
    scope.postMessage({ mp3: buffer, ms: performance.now() - started }, [buffer]);
  } catch (err) {
    scope.postMessage({ error: err instanceof Error ? err.message : String(err) });
  }
};
