// Prints the MP3 encoder's speed (issue 8): 60 s of mono 44.1 kHz PCM encoded to MP3 at 128 kbps by the
// recorder's own Web Worker (the built dist/assets/mp3.worker-*.js) in Chromium, beside native LAME
// (Debian's `lame`) and lamejs in Node on the same PCM in the same run, as realtime factors (seconds of
// audio per second of encoding). Each output is checked to be MPEG-1 Layer III at 128 kbps of 60 s.
// Builds the app first when dist/ has no worker:  npm run bench:mp3   (BENCH_MP3_RUNS=n, default 3)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { encodeMp3 } from '@/app/widgets/media/audio/mp3-encoder';
import { parseMp3 } from '../mp3-frames';
import { launchChromium } from './browser';

const SECONDS = 60;
const RATE = 44100;
const RUNS = Number(process.env.BENCH_MP3_RUNS ?? 3);

/** A voice-like signal: a gliding fundamental with harmonics, syllable-rate loudness, pauses and noise. */
function speechLike(): Float32Array {
  const pcm = new Float32Array(SECONDS * RATE);
  let phase = 0;
  let seed = 7;
  const noise = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff - 0.5;
  };
  for (let i = 0; i < pcm.length; i++) {
    const t = i / RATE;
    phase += (2 * Math.PI * (140 + 40 * Math.sin(2 * Math.PI * 0.7 * t))) / RATE;
    const voiced = Math.sin(phase) + 0.5 * Math.sin(2 * phase) + 0.25 * Math.sin(3 * phase);
    const syllables = Math.max(0, Math.sin(2 * Math.PI * 4 * t)) * (t % 5 < 4 ? 1 : 0.05);
    pcm[i] = 0.35 * voiced * syllables + 0.02 * noise();
  }
  return pcm;
}

function check(label: string, mp3: Uint8Array) {
  const s = parseMp3(mp3);
  const ok =
    s.version === 'MPEG-1' &&
    s.layer === 'Layer III' &&
    [...s.bitrates].join() === '128' &&
    Math.abs(s.seconds - SECONDS) < 0.2;
  if (!ok)
    throw new Error(
      `${label}: not 60 s of 128 kbps MPEG-1 Layer III (${JSON.stringify({ ...s, bitrates: [...s.bitrates] })})`,
    );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const line = (label: string, times: number[]) => {
  const m = median(times);
  return `${label.padEnd(44)} ${(SECONDS / m).toFixed(0).padStart(5)}× realtime   (median ${(m * 1000).toFixed(0)} ms for ${SECONDS} s; runs ${times.map((x) => `${(x * 1000).toFixed(0)}`).join(', ')} ms)`;
};

async function inChromium(pcm: Float32Array): Promise<{ total: number[]; inWorker: number[] }> {
  const assets = path.resolve('dist/assets');
  const find = () =>
    existsSync(assets) ? readdirSync(assets).find((f) => /^mp3\.worker-.+\.js$/.test(f)) : undefined;
  if (!find()) execFileSync(path.resolve('node_modules/.bin/vite'), ['build'], { stdio: 'inherit' });
  const worker = find();
  if (!worker) throw new Error('no dist/assets/mp3.worker-*.js after vite build');
  const body = Buffer.from(pcm.buffer);
  const page = `<!doctype html><meta charset="utf-8"><title>mp3 bench</title><script type="module">
    window.run = async () => {
      const pcm = new Float32Array(await (await fetch('/pcm.f32')).arrayBuffer());
      const w = new Worker('/assets/${worker}', { type: 'module' });
      const started = performance.now();
      const answer = await new Promise((resolve) => { w.onmessage = (e) => resolve(e.data); w.postMessage({ pcm, sampleRate: ${RATE} }, [pcm.buffer]); });
      const total = performance.now() - started;
      w.terminate();
      if (answer.error) throw new Error(answer.error);
      return { total, ms: answer.ms, mp3: Array.from(new Uint8Array(answer.mp3)) };
    };
  </script>`;
  const server = createServer((req, res) => {
    if (req.url === '/pcm.f32') return res.end(body);
    if (req.url === '/') return res.setHeader('content-type', 'text/html').end(page);
    const file = path.join('dist', path.normalize(req.url ?? '').replace(/^(\.\.[/\\])+/, ''));
    if (!existsSync(file)) return res.writeHead(404).end();
    res.setHeader('content-type', 'text/javascript').end(readFileSync(file));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  const browser = await launchChromium();
  try {
    const tab = await browser.newPage();
    await tab.goto(`http://127.0.0.1:${port}/`);
    await tab.waitForFunction(() => 'run' in window);
    const total: number[] = [];
    const inWorker: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const r = await tab.evaluate(() =>
        (window as unknown as { run(): Promise<{ total: number; ms: number; mp3: number[] }> }).run(),
      );
      if (i === 0) check('Chromium worker', Uint8Array.from(r.mp3));
      total.push(r.total / 1000);
      inWorker.push(r.ms / 1000);
    }
    return { total, inWorker };
  } finally {
    await browser.close();
    server.close();
  }
}

function nativeLame(pcm: Float32Array): number[] | null {
  if (spawnSync('lame', ['--version']).error) return null;
  const dir = mkdtempSync(path.join(tmpdir(), 'mp3-bench-'));
  try {
    const int16 = new Int16Array(pcm.length);
    for (let i = 0; i < pcm.length; i++) {
      const s = Math.max(-1, Math.min(1, pcm[i] ?? 0));
      int16[i] = s < 0 ? s * 0x8000 : s * 0x7fff;
    }
    writeFileSync(path.join(dir, 'in.raw'), Buffer.from(int16.buffer));
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      execFileSync(
        'lame',
        [
          '--quiet',
          '-r',
          '-s',
          '44.1',
          '--bitwidth',
          '16',
          '--signed',
          '--little-endian',
          '-m',
          'm',
          '-b',
          '128',
          '--cbr',
          '-t',
          'in.raw',
          'out.mp3',
        ],
        // Its libsndfile build warns that it may ignore -r: the output is checked below (60 s, mono).
        { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
      );
      times.push((performance.now() - started) / 1000);
    }
    check('native LAME', readFileSync(path.join(dir, 'out.mp3')));
    return times;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function inNode(pcm: Float32Array): number[] {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const mp3 = encodeMp3(pcm, RATE);
    times.push((performance.now() - started) / 1000);
    if (i === 0) check('lamejs in Node', mp3);
  }
  return times;
}

const pcm = speechLike();
console.log(
  `MP3 128 kbps CBR, mono 44.1 kHz, ${SECONDS} s of speech-like PCM, ${RUNS} runs each — ${availableParallelism()} cores, load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
const chromiumTimes = await inChromium(pcm);
const lame = nativeLame(pcm);
const node = inNode(pcm);
console.log(line('lamejs in Chromium’s Web Worker (post → reply)', chromiumTimes.total));
console.log(line('lamejs in Chromium’s Web Worker (encode only)', chromiumTimes.inWorker));
console.log(line('lamejs in Node', node));
console.log(
  lame
    ? line('native LAME 3.100 (lame process, incl. start)', lame)
    : 'native LAME: not installed (apt-get install -y lame)',
);
