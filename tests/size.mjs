// `npm run size`: the gzipped JS and CSS a visitor downloads for /login and for the shell's first screen,
// read from the suite's build (dist/, its index.html and Vite's manifest): tests/build.mjs makes it first unless
// dist/ already is the build of today's sources. Exits with 1 when /login's JS is over its 200 KiB budget or the attendant's first screen (shell +
// Atendimento) over its 200 KiB budget. CI runs it on the suite's build.
//
// A screen's line counts what its first paint needs (the static imports of index.html, the shell and the
// screen). What loads later is counted apart: the 'after first paint' line is what the attendant's phone
// then fetches without any click (idle preloads of the conversation pane, the user menu, the list's settings
// popover, the tooltips and drawers, the confirm host and the past-due check; socket.io at the first
// connection). Dialogs opened by a click (new conversation, transfer, contact drawer, media library…) are
// in neither line: each loads at its first opening (or on a pointer over its button).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import { ensureBuilt } from './build.mjs';

ensureBuilt({ quiet: true });
const DIST = path.resolve('dist');
const BUDGET_KIB = 200;
// Issue 37's target for the attendant's phone: the shell and Atendimento in 200 KiB.
const ATTENDANT_BUDGET_KIB = 200;
const manifestPath = path.join(DIST, '.vite', 'manifest.json');
if (!existsSync(manifestPath)) {
  console.error('dist/.vite/manifest.json não encontrado: rode `npm run build` antes.');
  process.exit(1);
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
const html = readFileSync(path.join(DIST, 'index.html'), 'utf8');

const gz = (file) => gzipSync(readFileSync(path.join(DIST, file)), { level: 9 }).length;
const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

/** What index.html makes the browser fetch before anything runs: the entry, its preloads, the CSS. */
function fromHtml() {
  const files = new Set();
  for (const m of html.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="\/([^"]+\.(?:js|css))"/g))
    files.add(m[1]);
  return files;
}

/** A manifest chunk and everything it imports statically (and its CSS). */
function closure(key, files = new Set()) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`chunk ${key} não está no manifesto`);
  files.add(chunk.file);
  for (const css of chunk.css ?? []) files.add(css);
  for (const dep of chunk.imports ?? []) if (!files.has(manifest[dep]?.file)) closure(dep, files);
  return files;
}

function measure(files) {
  const sum = { js: 0, css: 0, jsFiles: 0, cssFiles: 0 };
  for (const f of files) {
    const kind = f.endsWith('.css') ? 'css' : 'js';
    sum[kind] += gz(f);
    sum[`${kind}Files`] += 1;
  }
  return sum;
}

const login = fromHtml();
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
const shell = closure('src/app/signed-in.tsx', new Set(login));
const screens = {
  '/login': login,
  'shell + Atendimento (attendant)': closure(
    'src/app/features/attendance/AttendancePage.tsx',
    new Set(shell),
  ),
  'shell + Dashboard (owner, manager)': closure(
    'src/app/features/dashboard/DashboardPage.tsx',
    new Set(shell),
  ),
};
const later = closure('src/app/pwa.tsx', new Set());
for (const f of closure(entryKey)) later.delete(f);

/** The chunk rolldown named `name` (vite.config.ts gives socket.io its own). */
const named = (name) => Object.keys(manifest).find((k) => manifest[k].name === name && !manifest[k].src);
const attendant = screens['shell + Atendimento (attendant)'];
const afterPaint = new Set();
for (const key of [
  'src/app/features/attendance/pane/MobilePane.tsx',
  'src/app/features/attendance/list/SettingsMenu.tsx',
  'src/app/shell/UserMenu.tsx',
  'src/app/shell/PastDueDialog.tsx',
  'src/app/ui/overlay-parts.ts',
  'src/app/ui/ConfirmHost.tsx',
  named('socket-io'),
])
  closure(key, afterPaint);
for (const f of attendant) afterPaint.delete(f);

console.log('Gzipped (level 9) bytes each screen downloads on a cold visit:\n');
console.log(`${'screen'.padEnd(36)}${'JS'.padStart(12)}${'CSS'.padStart(12)}   files`);
for (const [name, files] of Object.entries(screens)) {
  const s = measure(files);
  console.log(
    `${name.padEnd(36)}${kib(s.js).padStart(12)}${kib(s.css).padStart(12)}   ${s.jsFiles} JS, ${s.cssFiles} CSS`,
  );
}
const idle = measure(afterPaint);
console.log(
  `${'+ after first paint (Atendimento)'.padEnd(36)}${kib(idle.js).padStart(12)}${kib(idle.css).padStart(12)}   ${idle.jsFiles} JS, ${idle.cssFiles} CSS`,
);
const sw = measure(later);
console.log(
  `${'+ after start (service worker reg.)'.padEnd(36)}${kib(sw.js).padStart(12)}${''.padStart(12)}   ${sw.jsFiles} JS`,
);

// The dashboards (spec 3 §2.1, §2.2): their chunks after the shell, the charts (@mantine/charts, recharts)
// apart, loaded after the cards. recharts must reach neither /login nor the attendant's first screen.
const dashboardKey = 'src/app/features/dashboard/DashboardPage.tsx';
const chartsKey = 'src/app/features/dashboard/dashboard-charts.tsx';
if (manifest[dashboardKey] && manifest[chartsKey]) {
  const minus = (files, ...others) => new Set([...files].filter((f) => !others.some((o) => o.has(f))));
  const dashboard = minus(closure(dashboardKey), shell);
  const tech = minus(closure('src/app/features/staff-pages.ts'), shell);
  const charts = minus(closure(chartsKey), shell, dashboard, tech);
  console.log('\nThe dashboards, after the shell (each a lazy chunk):');
  for (const [name, files] of [
    ['Dashboard (/)', dashboard],
    ['Platform staff screens (/dash-tecnico, /dash-financeiro, /admin-*)', minus(tech, dashboard)],
    ['+ their charts (after the cards)', charts],
  ]) {
    const s = measure(files);
    console.log(
      `${name.padEnd(36)}${kib(s.js).padStart(12)}${kib(s.css).padStart(12)}   ${s.jsFiles} JS, ${s.cssFiles} CSS`,
    );
  }
  for (const [name, files] of [
    ['/login', login],
    ['shell + Atendimento', attendant],
  ])
    for (const f of files)
      if (f.endsWith('.js') && readFileSync(path.join(DIST, f), 'utf8').includes('recharts-')) {
        console.error(
          `recharts está em ${f}, carregado por ${name}: os gráficos devem ficar no chunk do dashboard.`,
        );
        process.exitCode = 1;
      }
}

const loginJs = measure(login).js;
const loginOk = loginJs <= BUDGET_KIB * 1024;
console.log(`\n/login JS budget ${BUDGET_KIB} KiB: ${kib(loginJs)} ${loginOk ? 'OK' : 'OVER BUDGET'}`);
const attendantJs = measure(attendant).js;
const attendantOk = attendantJs <= ATTENDANT_BUDGET_KIB * 1024;
console.log(
  `shell + Atendimento JS budget ${ATTENDANT_BUDGET_KIB} KiB: ${kib(attendantJs)} ${attendantOk ? 'OK' : 'OVER BUDGET'}`,
);
process.exit(loginOk && attendantOk && !process.exitCode ? 0 : 1);
