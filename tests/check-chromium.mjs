// `npm test` runs the browser tests in Debian's Chromium: stop early, with the fix, when it is missing.
import { existsSync } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.error(
    `Chromium não encontrado em ${chromium}. Os testes de navegador usam o Chromium do Debian:\n` +
      '  sudo apt-get update && sudo apt-get install -y chromium\n' +
      '(ou defina CHROMIUM_PATH com o caminho de outro Chromium)',
  );
  process.exit(1);
}
