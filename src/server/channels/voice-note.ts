// A voice note as WhatsApp wants it. Attendants record MP3 (lamejs, in the browser); WhatsApp shows an MP3 as
// an audio file, and only Ogg/Opus as a voice note (the microphone icon, its transcript; the Cloud API asks for
// 'audio/ogg; codecs=opus' with voice: true). ffmpeg converts it on the way out; the MP3 stays in the media store
// for the app's own player. Without ffmpeg (or when it fails) the MP3 goes as before.
import { spawn } from 'node:child_process';
import type { FastifyBaseLogger } from 'fastify';

export const VOICE_NOTE_MIME = 'audio/ogg; codecs=opus';
const CONVERT_TIMEOUT_MS = 30_000;

let missingLogged = false;

/** The note as Ogg/Opus (mono, 48 kHz, 32 kbps, voice tuning), or null to send the original. */
export async function voiceNoteAsOpus(
  ffmpeg: string,
  bytes: Buffer,
  mime: string,
  log: Pick<FastifyBaseLogger, 'warn'>,
): Promise<Buffer | null> {
  if (mime.startsWith('audio/ogg')) return null;
  try {
    return await run(ffmpeg, bytes);
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    if (!missing) log.warn({ err }, 'voice note: ffmpeg could not convert it, the MP3 goes as it is');
    else if (!missingLogged) {
      missingLogged = true;
      log.warn({ ffmpeg }, 'voice note: ffmpeg not found, voice notes go as MP3 (README: ffmpeg)');
    }
    return null;
  }
}

function run(ffmpeg: string, input: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      ffmpeg,
      ['-hide_banner', '-loglevel', 'error', '-i', 'pipe:0', '-vn', '-ac', '1', '-ar', '48000'].concat([
        '-c:a',
        'libopus',
        '-b:a',
        '32k',
        '-application',
        'voip',
        '-f',
        'ogg',
        'pipe:1',
      ]),
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    const out: Buffer[] = [];
    let errText = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), CONVERT_TIMEOUT_MS);
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => {
      errText += b.toString();
    });
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    // The input may be refused midway (ffmpeg exits early): its pipe error is the exit's story, not ours.
    child.stdin.on('error', () => {});
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const ogg = Buffer.concat(out);
      if (code === 0 && ogg.subarray(0, 4).toString('latin1') === 'OggS') resolve(ogg);
      else reject(new Error(`ffmpeg ${signal ?? code}: ${errText.trim().slice(0, 300)}`));
    });
    child.stdin.end(input);
  });
}
