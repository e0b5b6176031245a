// Prints the Baileys channel's figures with the fake socket of tests/fakes (WhatsApp cannot be reached here):
//   1. inbound messages per second through the adapter into the database (messages.upsert → channel_inbox →
//      the pipeline: contact, conversation, message, socket events), on PGlite and on PostgreSQL;
//   2. the memory per connected chip with 50 chips connected (the adapter's own state per chip: its socket
//      wrapper, listeners, timers and auth state; a real Baileys socket adds its websocket, signal caches
//      and buffers, which only a real connection would show).
// Run: npm run bench:baileys (PostgreSQL at BENCH_DATABASE_URL, default postgres://postgres:postgres@127.0.0.1:5432/postgres;
// BENCH_PG=0 skips it). INBOUND sets the message count (default 1000).
import { performance } from 'node:perf_hooks';
import type { WAMessage } from '@whiskeysockets/baileys';
import { sql } from 'drizzle-orm';
import { type FakeBaileysSocket, fakeBaileysFactory } from '../fakes/baileys-socket';
import { collect, connected } from '../server/channel-helpers';
import { startTestServer, type TestServer } from '../server/helpers';

const ENV = {
  LOG_LEVEL: 'error',
  CHANNEL_QR_PROVIDER: 'baileys',
  BAILEYS_SEND_GAP_MS: '0',
  BAILEYS_TYPING_MS: '0',
};
const gc = () => (globalThis as { gc?: () => void }).gc?.();
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function connectChip(
  t: TestServer,
  owner: string,
  department: string,
  name: string,
  fake: ReturnType<typeof fakeBaileysFactory>,
) {
  const sock = t.socket(owner);
  await connected(sock);
  const events = collect(sock);
  const chip = await t.call('create-or-update-chip', { name, redirect: 'human', department }, owner);
  await t.call('connect-chip', { _id: chip._id, connect: true }, owner);
  await events.next('qrcode', 20_000);
  const fakeSock = fake.last();
  fakeSock.scan(`55119${String(fake.sockets.length).padStart(8, '0')}`);
  await events.next('status', 20_000);
  sock.close();
  return { chip, sock: fakeSock };
}

async function inbound(kind: string, env: Record<string, string>) {
  const fake = fakeBaileysFactory((s) => {
    if (s.creds.registered) s.open();
    else s.qr();
  });
  const t = await startTestServer({ ...ENV, ...env }, undefined, { baileysSocketFactory: fake.factory });
  try {
    const seed = await t.reset();
    const owner = await t.login('dono@demo.com');
    const { sock } = await connectChip(t, owner, seed.departments.support, 'Bench', fake);
    const total = Number(process.env.INBOUND ?? 1000);
    const customers = 100;
    const batch = 20;
    const now = Math.floor(Date.now() / 1000);
    const started = performance.now();
    for (let i = 0; i < total; i += batch) {
      const list: WAMessage[] = [];
      for (let j = i; j < Math.min(total, i + batch); j++) {
        list.push({
          key: {
            remoteJid: `55119${String(j % customers).padStart(8, '0')}@s.whatsapp.net`,
            fromMe: false,
            id: `BENCH${j}`,
          },
          message: { conversation: `Mensagem ${j}` },
          messageTimestamp: now + j,
          pushName: `Cliente ${j % customers}`,
        } as WAMessage);
      }
      (sock as FakeBaileysSocket).upsert(list);
    }
    await t.server.services.channels.baileys.idle();
    const seconds = (performance.now() - started) / 1000;
    const stored = (await t.server.services.db.execute(
      sql`select count(*)::int as n from messages where platform_message_id like 'BENCH%'`,
    )) as unknown as { rows: { n: number }[] };
    const n = (stored.rows[0] as { n: number } | undefined)?.n ?? 0;
    console.log(
      `${kind}: ${total} inbound messages (${customers} customers, upserts of ${batch}) in ${seconds.toFixed(1)} s = ${(n / seconds).toFixed(0)} messages/s; stored ${n}`,
    );
  } finally {
    await t.close();
  }
}

async function memory() {
  const fake = fakeBaileysFactory((s) => {
    if (s.creds.registered) s.open();
    else s.qr();
  });
  const t = await startTestServer({ ...ENV }, undefined, { baileysSocketFactory: fake.factory });
  try {
    const seed = await t.reset();
    const { db } = t.server.services;
    // The demo plan allows 5 channels; the bench account gets room for 50.
    await db.execute(sql`update accounts set max_channels = 100`);
    const owner = await t.login('dono@demo.com');
    // One first, so the lazily loaded code (Baileys, the pipeline) is in the baseline.
    await connectChip(t, owner, seed.departments.support, 'Chip 0', fake);
    gc();
    await new Promise((r) => setTimeout(r, 200));
    gc();
    const before = process.memoryUsage();
    const count = 50;
    for (let i = 1; i <= count; i++) await connectChip(t, owner, seed.departments.support, `Chip ${i}`, fake);
    gc();
    await new Promise((r) => setTimeout(r, 200));
    gc();
    const after = process.memoryUsage();
    const heap = (after.heapUsed - before.heapUsed) / count;
    const rss = (after.rss - before.rss) / count;
    console.log(
      `memory: ${count} more chips connected (fake sockets): heap +${mb(after.heapUsed - before.heapUsed)} (${(heap / 1024).toFixed(0)} KB per chip), rss +${mb(after.rss - before.rss)} (${(rss / 1024).toFixed(0)} KB per chip)${(globalThis as { gc?: unknown }).gc ? '' : ' (no --expose-gc: rough)'}`,
    );
  } finally {
    await t.close();
  }
}

async function main() {
  await inbound('PGlite', {});
  if (process.env.BENCH_PG !== '0') {
    const base = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
    process.env.DATABASE_URL = base;
    try {
      await inbound('PostgreSQL', {});
    } finally {
      delete process.env.DATABASE_URL;
    }
  }
  await memory();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
