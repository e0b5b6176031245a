// `npm run test:timings`: where the suite's time goes, read from the reports the last runs wrote to
// .tmp/timings/ (vitest's JSON report on PGlite and on PostgreSQL, Playwright's JSON report). For each suite:
// the 20 slowest files with their seconds, and how many test cases ran; then the distinct test cases that
// ran at least once in each suite (a server test counted once whether it ran on PGlite, PostgreSQL or both;
// a browser test once whatever its viewports). `--counts` prints only the counts (CI's last lines).
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const DIR = path.resolve('.tmp/timings');
const TOP = 20;
const countsOnly = process.argv.includes('--counts');

const read = (name) => {
  const file = path.join(DIR, name);
  if (!existsSync(file)) return undefined;
  return { report: JSON.parse(readFileSync(file, 'utf8')), at: statSync(file).mtime };
};
const rel = (file) => path.relative(process.cwd(), file);
const secs = (ms) => (ms / 1000).toFixed(1).padStart(7);

/** Vitest's JSON report → one row per file: its suite (unit | server), seconds and test cases by state. */
function vitestFiles(report) {
  return report.testResults.map((f) => {
    const file = rel(f.name);
    const states = { passed: 0, failed: 0, skipped: 0 };
    for (const a of f.assertionResults) {
      if (a.status === 'passed') states.passed++;
      else if (a.status === 'failed') states.failed++;
      else states.skipped++;
    }
    return {
      suite: file.startsWith('tests/unit/') ? 'unit' : 'server',
      file,
      ms: f.endTime - f.startTime,
      states,
      ran: f.assertionResults
        .filter((a) => a.status === 'passed' || a.status === 'failed')
        .map((a) => `${file} › ${a.fullName}`),
      failedNames: f.assertionResults
        .filter((a) => a.status === 'failed')
        .map((a) => `${file} › ${a.fullName}`),
      flakyNames: [],
    };
  });
}

/** Playwright's JSON report → one row per file and project, and the distinct tests that ran. */
function playwrightFiles(report) {
  const rows = new Map();
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests) {
        const key = `${spec.file} [${t.projectName}]`;
        const row = rows.get(key) ?? {
          suite: `browser ${t.projectName}`,
          file: `tests/e2e/${spec.file} [${t.projectName}]`,
          ms: 0,
          states: { passed: 0, failed: 0, skipped: 0, flaky: 0 },
          ran: [],
          failedNames: [],
          flakyNames: [],
        };
        rows.set(key, row);
        for (const r of t.results) row.ms += r.duration;
        if (t.status === 'skipped') row.states.skipped++;
        else if (t.status === 'expected') row.states.passed++;
        else if (t.status === 'flaky') row.states.flaky++;
        else row.states.failed++;
        const name = `${spec.file}:${spec.line} › ${[...titles, spec.title].join(' › ')}`;
        if (t.status === 'unexpected') row.failedNames.push(name);
        if (t.status === 'flaky') row.flakyNames.push(name);
        if (t.status !== 'skipped') row.ran.push(`${spec.file} › ${[...titles, spec.title].join(' › ')}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, child.file ? titles : [...titles, child.title]);
  };
  for (const s of report.suites) walk(s, []);
  return [...rows.values()];
}

/** A report's wall time in seconds: vitest's first start to its last end; Playwright's own figure. */
const wallOf = (report) =>
  report.stats?.duration !== undefined
    ? report.stats.duration / 1000
    : (Math.max(...report.testResults.map((f) => f.endTime)) - report.startTime) / 1000;

const sources = [
  ['vitest-pglite.json', 'PGlite', vitestFiles],
  ['vitest-postgres.json', 'PostgreSQL', vitestFiles],
  ['playwright.json', 'Chromium', playwrightFiles],
];
const distinct = new Map();
let found = 0;
for (const [name, where, parse] of sources) {
  const got = read(name);
  if (!got) continue;
  found++;
  const rows = parse(got.report);
  const suites = [...new Set(rows.map((r) => r.suite))];
  if (!countsOnly) console.log(`\n${name}: ${wallOf(got.report).toFixed(0)} s of wall time`);
  for (const suite of suites) {
    const mine = rows.filter((r) => r.suite === suite).sort((a, b) => b.ms - a.ms);
    const total = { passed: 0, failed: 0, skipped: 0, flaky: 0 };
    for (const r of mine) for (const k of Object.keys(r.states)) total[k] += r.states[k];
    const label = suite.startsWith('browser') ? suite : `${suite} on ${where}`;
    const kind = suite.startsWith('browser') ? 'browser' : suite;
    const set = distinct.get(kind) ?? new Set();
    distinct.set(kind, set);
    for (const r of mine) for (const id of r.ran) set.add(id);
    if (countsOnly) continue;
    const sum = mine.reduce((s, r) => s + r.ms, 0);
    console.log(
      `\n== ${label}: ${mine.length} files, ${total.passed} passed, ${total.failed} failed, ` +
        `${total.skipped} skipped${total.flaky ? `, ${total.flaky} flaky` : ''}; ` +
        `${(sum / 1000).toFixed(0)} s summed over files (report of ${got.at.toISOString()})`,
    );
    for (const r of mine.slice(0, TOP)) console.log(`${secs(r.ms)} s  ${r.file}`);
    // Named at the end of CI's output, where a cut log still shows them.
    for (const r of mine) for (const n of r.failedNames) console.log(`  FALHOU   ${n}`);
    for (const r of mine)
      for (const n of r.flakyNames) console.log(`  INSTÁVEL ${n} (passou na 2ª tentativa)`);
  }
}
if (!found) {
  console.error(`Nenhum relatório em ${rel(DIR)}/: rode os testes antes (npm test).`);
  process.exit(1);
}
console.log('\n== distinct test cases that ran at least once');
for (const [kind, set] of distinct) console.log(`${String(set.size).padStart(6)}  ${kind}`);
