// Encodes PCM to MP3 in a fresh Web Worker (loaded only when a recording is encoded) and ends it after.
import type { EncodeAnswer, EncodeRequest } from './mp3.worker';

export function encodeInWorker(pcm: Float32Array, sampleRate: number): Promise<Blob> {
  const worker = new Worker(new URL('./mp3.worker.ts', import.meta.url), { type: 'module' });
  return new Promise<Blob>((resolve, reject) => {
    worker.onmessage = (e: MessageEvent<EncodeAnswer>) => {
      worker.terminate();
      if ('error' in e.data) reject(new Error(e.data.error));
      else resolve(new Blob([e.data.mp3], { type: 'audio/mpeg' }));
    };
    worker.onerror = (e) => {
      worker.terminate();
      reject(new Error(e.message || 'MP3 worker failed'));
    };
    const request: EncodeRequest = { pcm, sampleRate };
    worker.postMessage(request, [pcm.buffer]);
  });
}
