// Entry point: validate config, open the database (migrations run), listen on PORT.
import { createServer } from './app';
import { ConfigError, loadConfig } from './config';

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  const started = performance.now();
  // Tests only (BAILEYS_FAKE=1, refused in production by loadConfig): WhatsApp replaced by the fake socket of
  // tests/fakes, loaded only then, so the e2e tests can connect a Baileys chip through its QR code.
  const baileysSocketFactory =
    config.BAILEYS_FAKE === '1'
      ? (await import('../../tests/fakes/baileys-socket')).scriptedBaileysFactory(config.BAILEYS_FAKE_SCAN_MS)
      : undefined;
  const server = await createServer(config, { ...(baileysSocketFactory && { baileysSocketFactory }) });
  const address = await server.app.listen({ port: config.PORT, host: config.HOST });
  const port = (server.app.server.address() as { port: number }).port;
  server.app.log.info(
    `Servidor pronto em ${Math.round(performance.now() - started)} ms (${server.database.kind}): ${address.replace(/0\.0\.0\.0|\[::\]/, 'localhost')}`,
  );
  if (server.firstStartLines) console.log(`\n${server.firstStartLines.join('\n')}\n`);
  // A line the e2e harness and scripts can wait for.
  console.log(`listening on port ${port}`);
  // MEMORY_LOG_SECONDS: a line of the process's memory every so often, for watching a long run (npm run soak).
  const every = Number(process.env.MEMORY_LOG_SECONDS ?? 0);
  if (every > 0)
    setInterval(() => {
      const m = process.memoryUsage();
      console.log(`memory rss=${m.rss} heap=${m.heapUsed} external=${m.external}`);
    }, every * 1000).unref();

  let closing = false;
  const stop = async (signal: string) => {
    if (closing) return;
    closing = true;
    server.app.log.info(`${signal}: encerrando`);
    // A shutdown that hangs (a connection that never closes) must not keep the process up: what it held is
    // taken again by the claims' leases and the jobs' expiries, as after a kill.
    setTimeout(() => {
      console.error(`${signal}: encerramento não terminou em 15 s; saindo assim mesmo`);
      process.exit(1);
    }, 15_000).unref();
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
