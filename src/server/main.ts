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

  let closing = false;
  const stop = async (signal: string) => {
    if (closing) return;
    closing = true;
    server.app.log.info(`${signal}: encerrando`);
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
