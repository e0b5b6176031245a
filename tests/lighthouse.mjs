// `npm run lighthouse`: Lighthouse's mobile performance score of /login, on the real server serving the
// last build (run `npm run build` first), in Debian's Chromium. Reports go to test-results/lighthouse/.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const CHROME = process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const OUT = path.resolve('test-results', 'lighthouse');

if (!existsSync('dist/index.html')) {
  console.error('dist/ não encontrado: rode `npm run build` antes.');
  process.exit(1);
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });

async function startServer() {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'painel-lighthouse-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk;
      if (output.includes(`listening on port ${port}`)) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`o servidor saiu com ${code}:\n${output}`)));
  });
  child.removeAllListeners('exit');
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

const server = await startServer();
const chrome = await chromeLauncher.launch({
  chromePath: CHROME,
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-dev-shm-usage',
    '--no-first-run',
  ],
});
try {
  const url = `${server.url}/login`;
  // Lighthouse's default: a mid-range phone on slow 4G (simulated throttling).
  const result = await lighthouse(url, {
    port: chrome.port,
    output: ['json', 'html'],
    onlyCategories: ['performance'],
    logLevel: 'error',
  });
  if (!result) throw new Error('Lighthouse não retornou resultado');
  const { lhr, report } = result;
  await mkdir(OUT, { recursive: true });
  await writeFile(path.join(OUT, 'login.json'), report[0]);
  await writeFile(path.join(OUT, 'login.html'), report[1]);

  const audit = (id) => lhr.audits[id];
  console.log(
    `Lighthouse ${lhr.lighthouseVersion}, ${lhr.configSettings.formFactor}, ${lhr.environment.hostUserAgent.match(/Chrome\/[\d.]+/)?.[0] ?? ''}`,
  );
  console.log(`${url}`);
  console.log(`\nPerformance score: ${Math.round((lhr.categories.performance.score ?? 0) * 100)}`);
  for (const id of [
    'first-contentful-paint',
    'largest-contentful-paint',
    'total-blocking-time',
    'cumulative-layout-shift',
    'speed-index',
    'interactive',
  ]) {
    console.log(`  ${audit(id).title.padEnd(26)} ${audit(id).displayValue ?? ''}`);
  }
  console.log(`  ${'Total transfer'.padEnd(26)} ${audit('total-byte-weight').displayValue ?? ''}`);
  const opportunities = Object.values(lhr.audits).filter(
    (a) => a.details?.type === 'opportunity' && (a.score ?? 1) < 0.9,
  );
  if (opportunities.length) {
    console.log('\nOpportunities:');
    for (const a of opportunities)
      console.log(`  - ${a.title}${a.displayValue ? `: ${a.displayValue}` : ''}`);
  }
  if (lhr.runWarnings.length) console.log(`\nWarnings:\n  ${lhr.runWarnings.join('\n  ')}`);
  console.log(`\nReport: ${path.relative(process.cwd(), path.join(OUT, 'login.html'))}`);
} finally {
  await chrome.kill();
  await server.stop();
}
