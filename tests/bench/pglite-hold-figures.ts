// Prints how long the embedded database (PGlite: one connection, one operation at a time) is held in one piece
// while a 200,000-row audience is imported, and what that does to an attendant (issue 37: no hold over
// 250 ms). The real server on a fresh PGlite, the demo data and a customer writing to Suporte; the owner imports
// the sheet through import-audience (multipart, as the app sends it), once without and once with
// create_contacts, while the attendant sends a message to the customer every 100 ms through
// send-conversation-message. Figures: the longest hold during the import (and what held it), the holds over
// 250 ms, the import's total time, and the attendant's send latency p50/p99 beside the same sends with no import
// (the ceiling). PGlite only: on PostgreSQL nothing holds the whole database.
// Run: npm run bench:pglite-holds   (BENCH_ROWS=20000 for a quick look)
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { Hold } from '@/server/db/holds';
import { conversations } from '@/server/db/schema';
import type { Envelope } from '@/shared/contract';
import type { Audience } from '@/shared/contract/campaigns';
import { startTestServer, type TestServer } from '../server/helpers';
import { makeBigXlsx } from '../xlsx';
import { customersWrite } from './customers';

const ROWS = Number(process.env.BENCH_ROWS ?? 200_000);
const BUDGET_MS = 250;
/** Between two sends of the attendant: a person typing fast. */
const PAUSE_MS = 100;
const CEILING_MS = 5_000;

const ms = (n: number) => `${n.toFixed(0)} ms`;
const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};
const load = () =>
  `${cpus().length} núcleos, carga média ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' / ')}`;

async function importAudience(t: TestServer, token: string, file: Buffer, createContacts: boolean) {
  const form = new FormData();
  form.append('name', `Holds ${createContacts ? 'com' : 'sem'} contatos`);
  form.append('create_contacts', String(createContacts));
  form.append('file', new Blob([new Uint8Array(file)]), 'audiencia.xlsx');
  const res = await fetch(`${t.url}/api/import-audience`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const env = (await res.json()) as Envelope<Audience>;
  if (env.error) throw new Error(`import-audience: ${env.message}`);
  if (env.message.people_count !== ROWS) throw new Error(`people_count ${env.message.people_count}`);
}

/**
 * The attendant, on a thread of its own as a person's browser is a machine of its own: PGlite runs on the server's
 * thread, so while it holds the database the server's event loop stands still, and a client on that thread would
 * stand still with it and never see the wait. It sends to the conversation every PAUSE_MS from 'start' to 'stop'
 * and answers each send's time, from its request to its answer.
 */
const ATTENDANT = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, token, conversationId, pauseMs } = workerData;
let sending = false;
let times = [];
let n = 0;
async function send() {
  const start = performance.now();
  const res = await fetch(url + '/api/send-conversation-message', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer ' + token },
    body: JSON.stringify({
      conversation_id: conversationId,
      message_id: 'holds-' + Date.now().toString(36) + '-' + n,
      text: 'Seu pedido saiu para entrega (' + n++ + ').',
    }),
  });
  const env = await res.json();
  if (env.error) throw new Error('send-conversation-message: ' + env.message);
  times.push(performance.now() - start);
}
parentPort.on('message', async (m) => {
  if (m === 'stop') return void (sending = false);
  sending = true;
  times = [];
  while (sending) {
    await send();
    await new Promise((r) => setTimeout(r, pauseMs));
  }
  parentPort.postMessage(times);
});
`;

/** Starts the attendant's sends; the answer stops them and answers their times. */
function attendantSends(worker: Worker): () => Promise<number[]> {
  worker.postMessage('start');
  return () => {
    const times = new Promise<number[]>((resolve) => worker.once('message', resolve));
    worker.postMessage('stop');
    return times;
  };
}

const latency = (times: number[]) =>
  `p50 ${ms(pct(times, 50))}, p99 ${ms(pct(times, 99))} (${times.length} envios)`;

async function main() {
  // The embedded database is the one this bench is about.
  delete process.env.DATABASE_URL;
  const t = await startTestServer({
    LOG_LEVEL: 'error',
    NODE_ENV: 'production',
    CHANNEL_QR_PROVIDER: 'simulator',
  });
  try {
    const holds = t.server.database.holds;
    if (!holds) throw new Error('no hold meter: not PGlite?');
    await customersWrite(t, 1, 7300_0000);
    const owner = await t.login('dono@demo.com');
    const attendant = await t.login('atendente@demo.com');
    const [conversation] = await t.server.services.db.select({ id: conversations.id }).from(conversations);
    if (!conversation) throw new Error('no conversation');
    const sheets = {
      false: await makeBigXlsx(ROWS, 5521900000000),
      true: await makeBigXlsx(ROWS, 5511900000000),
    };
    console.log(`PGlite. Máquina: ${load()}`);
    console.log(
      `Planilha: ${ROWS.toLocaleString('pt-BR')} linhas, ${(sheets.false.length / 1024 / 1024).toFixed(1)} MiB`,
    );

    const worker = new Worker(ATTENDANT, {
      eval: true,
      workerData: { url: t.url, token: attendant, conversationId: conversation.id, pauseMs: PAUSE_MS },
    });
    worker.on('error', (err) => {
      console.error(err);
      process.exit(1);
    });
    const stopCeiling = attendantSends(worker);
    await new Promise((r) => setTimeout(r, CEILING_MS));
    const ceiling = await stopCeiling();
    console.log(`\nSem importação (teto): envio do atendente ${latency(ceiling)}`);

    for (const createContacts of [false, true]) {
      const seen: Hold[] = [];
      const unwatch = holds.watch((h) => seen.push(h));
      const start = performance.now();
      const stop = attendantSends(worker);
      await importAudience(t, owner, sheets[String(createContacts) as 'false' | 'true'], createContacts);
      const total = performance.now() - start;
      unwatch();
      const times = await stop();
      const longest = seen.reduce<Hold | null>((a, h) => (!a || h.ms > a.ms ? h : a), null);
      const over = seen.filter((h) => h.ms > BUDGET_MS);
      console.log(
        `\nImportação de ${ROWS.toLocaleString('pt-BR')} linhas, create_contacts ${createContacts} (${load()})`,
      );
      console.log(`  Tempo total (import-audience, análise + gravação): ${(total / 1000).toFixed(2)} s`);
      console.log(`  Maior retenção do banco: ${longest ? ms(longest.ms) : '-'}  ${longest?.what ?? ''}`);
      console.log(`  Retenções acima de ${BUDGET_MS} ms: ${over.length} de ${seen.length}`);
      console.log(`  Envio do atendente durante a importação: ${latency(times)}`);
    }
    await worker.terminate();
  } finally {
    await t.close();
  }
}

await main();
