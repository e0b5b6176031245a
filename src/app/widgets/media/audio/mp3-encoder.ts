// PCM to MP3 at 128 kbps (spec 2 §4 Audio recording) with lamejs' ES module fork. Pure: the worker runs
// it off the main thread, the unit test and the benchmark run it as it is.
import { Mp3Encoder } from '@breezystack/lamejs';

export const MP3_KBPS = 128;
/** The sample rates of MPEG-1 Layer III: anything else is resampled to 44.1 kHz before encoding. */
export const MP3_SAMPLE_RATES = [32000, 44100, 48000] as const;
const BLOCK = 1152 * 10;

/** Float samples in [-1, 1] to 16-bit integers, clipped. */
export function toInt16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i] ?? 0));
    out[i] = s < 0 ? s * 0x8000 : s * 0x7fff;
  }
  return out;
}

/** Mono PCM to one MP3 file (constant 128 kbps). */
export function encodeMp3(pcm: Float32Array | Int16Array, sampleRate: number): Uint8Array {
  if (!(MP3_SAMPLE_RATES as readonly number[]).includes(sampleRate)) {
    throw new Error(`MP3 needs 32, 44.1 or 48 kHz, not ${sampleRate} Hz`);
  }
  const samples = pcm instanceof Int16Array ? pcm : toInt16(pcm);
  const encoder = new Mp3Encoder(1, sampleRate, MP3_KBPS);
  const parts: Uint8Array[] = [];
  for (let i = 0; i < samples.length; i += BLOCK) {
    const chunk = encoder.encodeBuffer(samples.subarray(i, i + BLOCK));
    if (chunk.length) parts.push(chunk.slice());
  }
  const tail = encoder.flush();
  if (tail.length) parts.push(tail.slice());
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
