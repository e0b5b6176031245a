// The machine's ceiling for the inbound bench (scale-figures.ts): a bare Fastify route that parses the same
// JSON as the simulator's send and does one INSERT into the same PostgreSQL, in its own process like the real
// server. Prints "listening on port N".
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
await pool.query(
  'create table if not exists bench_ceiling (id text primary key, phone text not null, body text not null, created_at timestamptz not null default now())',
);
const app = Fastify();
app.post('/api/simulator-send', async (req) => {
  const body = req.body as { id: string; phone: string; text: string };
  await pool.query('insert into bench_ceiling (id, phone, body) values ($1, $2, $3)', [
    body.id,
    body.phone,
    body.text,
  ]);
  return { error: false, message: { id: body.id } };
});
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening on port ${(app.server.address() as { port: number }).port}`);
