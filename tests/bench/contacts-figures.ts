// Prints the contacts figures on the real server over HTTP, the way the app does it: the analysis of a
// 100,000-row xlsx (send-audience-list, multipart) and its import (import-contacts in batches), budget
// 10 s together; then the export of those 100,000 contacts. PGlite by default; PostgreSQL with DATABASE_URL.
// Run: npm run bench:contacts
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { CONTACT_IMPORT_BATCH } from '@/shared/constants';
import type { Envelope } from '@/shared/contract';
import type { AudienceAnalysis } from '@/shared/contract/contacts';
import { startTestServer } from '../server/helpers';
import { makeBigXlsx, readXlsx } from '../xlsx';

const ROWS = 100_000;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

async function main() {
  // As in production: answers are not re-validated against the contract (a development check).
  const t = await startTestServer({ LOG_LEVEL: 'error', NODE_ENV: 'production' });
  try {
    await t.reset();
    const owner = await t.login('dono@demo.com');
    const file = await makeBigXlsx(ROWS);
    console.log(
      `Máquina: ${cpus().length} núcleos, carga média ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' / ')}`,
    );
    console.log(`Planilha: ${ROWS} linhas, ${(file.length / 1024 / 1024).toFixed(1)} MiB`);

    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(file)]), 'contatos.xlsx');
    const res = await fetch(`${t.url}/api/send-audience-list`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner}` },
      body: form,
    });
    const env = (await res.json()) as Envelope<AudienceAnalysis>;
    if (env.error) throw new Error(env.message);
    const t1 = performance.now();
    const { valid, header } = env.message;
    for (let i = 0; i < valid.length; i += CONTACT_IMPORT_BATCH)
      await t.call(
        'import-contacts',
        { people: valid.slice(i, i + CONTACT_IMPORT_BATCH), props: header },
        owner,
      );
    const t2 = performance.now();
    console.log(`Análise (send-audience-list): ${s(t1 - t0)} (${valid.length} válidos)`);
    console.log(`Importação (import-contacts, lotes de ${CONTACT_IMPORT_BATCH}): ${s(t2 - t1)}`);
    const cpu = process.cpuUsage(cpu0);
    console.log(`Análise + importação: ${s(t2 - t0)} (orçamento 10 s)`);
    // Server and client share this process: its CPU time is what the work costs when the machine is idle.
    console.log(`  tempo de CPU deste processo (servidor e cliente): ${s((cpu.user + cpu.system) / 1000)}`);

    const t3 = performance.now();
    const exported = await t.call('export-contacts', {}, owner);
    const t4 = performance.now();
    const bytes = Buffer.from(exported.content_base64, 'base64');
    const rows = await readXlsx(bytes);
    console.log(
      `Exportação (export-contacts) de ${rows.length - 1} contatos: ${s(t4 - t3)}, ${(bytes.length / 1024 / 1024).toFixed(1)} MiB`,
    );
  } finally {
    await t.close();
  }
}

await main();
