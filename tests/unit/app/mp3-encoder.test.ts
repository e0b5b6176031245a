// The recorder's MP3 encoder (the code its Web Worker runs): MPEG-1 Layer III at a constant 128 kbps, as
// long as the PCM it was given, and playable by a real decoder.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeMp3 } from '@/app/widgets/media/audio/mp3-encoder';
import { parseMp3 } from '../../mp3-frames';

/** A voice-like test signal: a 220 Hz tone with harmonics under a slow tremolo, plus a little noise. */
function tone(seconds: number, rate: number) {
  const pcm = new Float32Array(Math.round(seconds * rate));
  for (let i = 0; i < pcm.length; i++) {
    const t = i / rate;
    const v = Math.sin(2 * Math.PI * 220 * t) + 0.4 * Math.sin(2 * Math.PI * 440 * t);
    pcm[i] = 0.5 * v * (0.6 + 0.4 * Math.sin(2 * Math.PI * 3 * t)) + 0.01 * (Math.random() - 0.5);
  }
  return pcm;
}

describe('encodeMp3', () => {
  for (const [seconds, rate] of [
    [3, 44100],
    [7.5, 48000],
    [1, 32000],
  ] as const) {
    it(`${seconds} s at ${rate} Hz: MPEG-1 Layer III, 128 kbps in every frame, ${seconds} s long`, () => {
      const mp3 = encodeMp3(tone(seconds, rate), rate);
      const stream = parseMp3(mp3);
      expect(stream.version).toBe('MPEG-1');
      expect(stream.layer).toBe('Layer III');
      expect([...stream.bitrates]).toEqual([128]);
      expect(stream.sampleRate).toBe(rate);
      // The encoder adds its delay and pads the last frame: at most a few frames more.
      expect(stream.seconds).toBeGreaterThanOrEqual(seconds);
      expect(stream.seconds).toBeLessThan(seconds + (4 * 1152) / rate);
      // 128 kbps constant: the size follows from the duration.
      expect(mp3.length).toBeGreaterThan((128_000 / 8) * seconds * 0.98);
      // About 1 s alone; CI runs it beside the other suites on 2 cores, where it took 8 s.
    }, 30_000);
  }

  // LAME's own decoder (Debian's lame, also used by npm run bench:mp3) reads the file back.
  it.skipIf(!existsSync('/usr/bin/lame'))('LAME decodes it back to as many seconds of sound', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mp3-'));
    try {
      writeFileSync(path.join(dir, 'a.mp3'), encodeMp3(tone(2, 44100), 44100));
      execFileSync('lame', ['--quiet', '--decode', 'a.mp3', 'a.wav'], { cwd: dir });
      const wav = readFileSync(path.join(dir, 'a.wav'));
      const seconds = (wav.length - 44) / 2 / 44100;
      expect(seconds).toBeGreaterThan(1.95);
      expect(seconds).toBeLessThan(2.15);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a sample rate MPEG-1 does not have', () => {
    expect(() => encodeMp3(new Float32Array(100), 22050)).toThrow(/44.1/);
  });

  it('the frame walker refuses a stream that is not MP3', () => {
    expect(() => parseMp3(new Uint8Array([1, 2, 3, 4, 5]))).toThrow(/frame sync/);
  });
});
