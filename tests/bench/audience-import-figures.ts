// Prints the audience import figures on the real server over HTTP, the way the app does it: a 200,000-row
// xlsx (made here with exceljs) analysed (send-audience-list) and then imported (import-audience: the
// analysis again, then the people and, with create_contacts, the contacts, in one transaction).
// PGlite by default; PostgreSQL with DATABASE_URL (a fresh database is made next to it and dropped).
// Run: npm run bench:audiences   or   DATABASE_URL=postgres://… npm run bench:audiences

import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { analyseContactsSheet } from '@/server/domains/contacts/contacts-sheet';
import type { Envelope } from '@/shared/contract';
import type { Audience } from '@/shared/contract/campaigns';
import type { AudienceAnalysis } from '@/shared/contract/contacts';
import { startTestServer, type TestServer } from '../server/helpers';

const ROWS = 200_000;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const rate = (rows: number, ms: number) =>
  `${Math.round(rows / (ms / 1000)).toLocaleString('pt-BR')} linhas/s`;

/** telefone, nome, cidade, produto: streamed, so making 200,000 rows stays quick. */
async function makeSheet(rows: number, firstPhone: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const sink = new PassThrough();
  sink.on('data', (c: Buffer) => chunks.push(c));
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: sink, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Planilha1');
  sheet.addRow(['telefone', 'nome', 'cidade', 'produto']).commit();
  for (let i = 0; i < rows; i++)
    sheet.addRow([String(firstPhone + i), `Pessoa ${i} Silva`, 'Recife', `Plano ${i % 7}`]).commit();
  await workbook.commit();
  return Buffer.concat(chunks);
}

async function post<T>(
  t: TestServer,
  call: string,
  token: string,
  file: Buffer,
  fields: Record<string, string>,
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(file)]), 'audiencia.xlsx');
  const res = await fetch(`${t.url}/api/${call}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const env = (await res.json()) as Envelope<T>;
  if (env.error) throw new Error(`${call}: ${env.message}`);
  return env.message;
}

async function main() {
  const database = process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  // As in production: answers are not re-validated against the contract (a development check).
  const t = await startTestServer({ LOG_LEVEL: 'error', NODE_ENV: 'production' });
  try {
    await t.reset();
    const owner = await t.login('dono@demo.com');
    console.log(
      `Banco: ${database}. Máquina: ${cpus().length} núcleos, carga média ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' / ')}`,
    );
    for (const createContacts of [false, true]) {
      const file = await makeSheet(ROWS, createContacts ? 5511900000000 : 5521900000000);
      console.log(
        `\nPlanilha: ${ROWS.toLocaleString('pt-BR')} linhas, ${(file.length / 1024 / 1024).toFixed(1)} MiB, create_contacts ${createContacts}`,
      );
      const t0 = performance.now();
      const analysis = await post<AudienceAnalysis>(t, 'send-audience-list', owner, file, {});
      const tAnswered = performance.now();
      // The analysis as import-audience runs it (in this process, which is the server's): without the
      // 200,000 people sent back as JSON, which send-audience-list adds.
      await analyseContactsSheet(file, 'audiencia.xlsx');
      const t1 = performance.now();
      const audience = await post<Audience>(t, 'import-audience', owner, file, {
        name: `Bench ${createContacts ? 'com' : 'sem'} contatos`,
        create_contacts: String(createContacts),
      });
      const t2 = performance.now();
      if (audience.people_count !== ROWS) throw new Error(`people_count ${audience.people_count}`);
      const analyse = t1 - tAnswered;
      // import-audience analyses the sheet again: what it adds over the analysis is the save.
      const save = t2 - t1 - analyse;
      console.log(
        `  Análise com a resposta (send-audience-list, HTTP): ${s(tAnswered - t0)}, ${rate(analysis.valid.length, tAnswered - t0)}`,
      );
      console.log(`  Análise (analyseContactsSheet): ${s(analyse)}, ${rate(ROWS, analyse)}`);
      console.log(
        `  Importação (import-audience, análise + gravação): ${s(t2 - t1)}, ${rate(ROWS, t2 - t1)}`,
      );
      console.log(
        `  Gravação (pessoas${createContacts ? ' e contatos' : ''}, uma transação): ~${s(save)}, ${rate(ROWS, save)}`,
      );
    }
  } finally {
    await t.close();
  }
}

await main();
