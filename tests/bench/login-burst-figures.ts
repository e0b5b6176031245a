// Prints the login limit under a concurrent burst on the real server: 100 wrong passwords for one e-mail
// sent at once, the right one hidden among them; an answer that is not 429 is a guess that was checked
// (at most LOGIN_MAX_FAILURES_PER_EMAIL, 5). PGlite by default; PostgreSQL with DATABASE_URL.
// Run: npm run bench:login
import { DEMO_PASSWORD } from '@/server/seed/demo';
import { startTestServer } from '../server/helpers';

async function main() {
  const t = await startTestServer({ LOG_LEVEL: 'error' });
  try {
    await t.reset();
    const total = 100;
    const right = 57;
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: total }, (_, i) =>
        t.post('auth', { email: 'gerente@demo.com', password: i === right ? DEMO_PASSWORD : `errada${i}` }),
      ),
    );
    const elapsed = performance.now() - started;
    const checked = answers.filter((a) => a.status !== 429).length;
    const tokens = answers.filter((a) => !a.body.error).length;
    console.log(`database ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ${elapsed.toFixed(0)} ms`);
    console.log(`guesses checked out of ${total} concurrent: ${checked}`);
    console.log(`tokens given (the right password was guess ${right + 1}): ${tokens}`);
  } finally {
    await t.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
