import { defineConfig, devices } from '@playwright/test';

// Debian's Chromium, never a downloaded browser (TOOLCHAIN.md). The server is started per worker by
// tests/e2e/fixtures.ts on a free port with a fresh DATA_DIR.
const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  timeout: 60_000,
  // Each worker runs a real server and Chromium on a 2-core machine: a screen may take more than the default
  // 5 s to settle while the other worker loads the machine.
  expect: { timeout: 10_000 },
  fullyParallel: false,
  // On CI one more try: a 2-core machine running two servers and two browsers for ~40 minutes sometimes
  // misses a timing by a hair. A test that fails twice still fails the run, and a retried pass is listed
  // as 'flaky' in the report, so it is seen and fixed rather than hidden.
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  // The JSON report feeds `npm run test:timings` (slowest files, test counts).
  reporter: [['list'], ['json', { outputFile: '.tmp/timings/playwright.json' }]],
  // dist/ is built once for the suite (tests/build.mjs): built here only when it is not today's sources'.
  globalSetup: './tests/e2e/global-setup.ts',
  use: {
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
    trace: 'on-first-retry',
    launchOptions,
    // The service worker precaches every chunk of the app in each new context (~2 s of CPU per test): the
    // files that test it (pwa, offline, offline-reliability, public-api) allow it with test.use().
    serviceWorkers: 'block',
  },
  projects: [
    // 360×640 only for tests tagged @phone (layout, touch, pane, drawers, back, toasts); the rest run once.
    {
      name: 'phone',
      grep: /@phone/,
      use: { ...devices['Pixel 5'], viewport: { width: 360, height: 640 }, launchOptions },
    },
    { name: 'desktop', use: { viewport: { width: 1280, height: 800 }, launchOptions } },
  ],
});
