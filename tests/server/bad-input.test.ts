// Malformed input never gets a 500 or a stack trace: every registered call answers the envelope with a
// pt-BR message. The property test walks the whole registry, so it grows with every call added.
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_JSON_DEPTH } from '@/server/http/json';
import { calls } from '@/shared/contract';
import { messages } from '@/shared/messages';
import { startTestServer, type TestServer } from './helpers';

let t: TestServer;
let token: string;
beforeAll(async () => {
  t = await startTestServer({ LOGIN_MAX_FAILURES_PER_IP: '100000', LOGIN_MAX_FAILURES_PER_EMAIL: '100000' });
});
// Random bodies are sometimes valid and change things: each test starts from the demo again, but after a
// call that only reads (get-…), which changed nothing to start from.
let unchanged = false;
beforeEach(async () => {
  if (unchanged) {
    unchanged = false;
    return;
  }
  await t.reset();
  token = await t.login('dono@demo.com');
});
afterAll(() => t.close());

const names = Object.keys(calls) as (keyof typeof calls)[];
const keysOf = (name: keyof typeof calls) => {
  const p = calls[name].payload;
  return p instanceof z.ZodObject ? Object.keys(p.shape) : [];
};

async function send(name: string, body: string | undefined, contentType: string | null, auth: boolean) {
  const headers: Record<string, string> = {};
  if (contentType) headers['content-type'] = contentType;
  // logout would end the session the rest of the run relies on; it is tested on its own elsewhere.
  if (auth && name !== 'logout') headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${t.url}/api/${name}`, { method: 'POST', headers, body });
  const text = await res.text();
  return { status: res.status, text };
}

function assertEnvelope(r: { status: number; text: string }) {
  expect(r.status).not.toBe(500);
  expect(r.text).not.toMatch(/at .+\.(ts|js):\d+/); // no stack trace
  const env = JSON.parse(r.text) as { error: boolean; message: unknown };
  expect(typeof env.error).toBe('boolean');
  if (env.error) {
    expect(typeof env.message).toBe('string');
    expect((env.message as string).length).toBeGreaterThan(0);
  }
  return env;
}

const anyValue = fc.oneof(
  fc.jsonValue(),
  fc.string(),
  fc.constantFrom('', ' ', '\u0000', 'a'.repeat(5000), '<script>', '__proto__', '2026-13-45', '-1', 'NaN'),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
);

describe('bad input on every call', () => {
  // One test a call: each has its own time, and a failure names the call.
  const bodies = (name: keyof typeof calls) => {
    const keys = keysOf(name);
    const shaped = keys.length
      ? fc.dictionary(fc.constantFrom(...keys), anyValue).map((o) => JSON.stringify(o))
      : fc.constant('{}');
    return fc.oneof(
      shaped,
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.string(),
      fc.constantFrom(
        '',
        '{',
        '[]',
        'null',
        '"x"',
        '{"__proto__":{"admin":true}}',
        '{"constructor":{"prototype":{}}}',
      ),
    );
  };
  it.each(names)('answers random bodies to %s with the envelope, never a 500', async (name) => {
    await fc.assert(
      fc.asyncProperty(
        bodies(name),
        fc.constantFrom('application/json', 'text/plain', null),
        fc.boolean(),
        async (body, contentType, auth) => {
          assertEnvelope(await send(name, body, contentType, auth));
        },
      ),
      // FUZZ_RUNS=400 searches harder (locally, against both databases); CI keeps the suite quick.
      { numRuns: Number(process.env.FUZZ_RUNS ?? 40) },
    );
    // The session still works: nothing above logged the owner out or corrupted the account.
    expect((await t.call('get-user', {}, token)).email).toBe('dono@demo.com');
    unchanged = name.startsWith('get-');
  });

  // PostgreSQL text cannot hold U+0000 (PGlite may accept it): each call refuses it before the database.
  it('refuses a NUL character in any field of any call, naming the field', async () => {
    for (const name of names) {
      const key = keysOf(name)[0];
      const def = calls[name];
      // Skipped: calls the owner may not make (admin, a system role: refused before the body is read) and
      // uploads (multipart).
      if (
        !key ||
        name === 'logout' ||
        def.upload ||
        (!def.access.public && (def.access.admin || def.access.systemRole))
      )
        continue;
      const env = assertEnvelope(
        await send(name, JSON.stringify({ [key]: 'a\u0000b' }), 'application/json', true),
      );
      expect(env, name).toEqual({ error: true, message: messages.nulCharacter(key) });
    }
  });

  it('names the problem: wrong types, missing fields, non-JSON, empty bodies', async () => {
    const missing = assertEnvelope(
      await send('auth', '{"email":"dono@demo.com"}', 'application/json', false),
    );
    expect(missing).toEqual({ error: true, message: messages.fillAllFields });
    const wrongType = assertEnvelope(await send('update-user', '{"name":42}', 'application/json', true));
    expect(wrongType.message).toMatch(/^Campo name: /);
    const nonJson = assertEnvelope(
      await send('update-user', 'name=Ana', 'application/x-www-form-urlencoded', true),
    );
    expect(nonJson).toEqual({ error: true, message: messages.invalidJson });
    const empty = assertEnvelope(await send('send-password-recovery', '', 'application/json', false));
    expect(empty).toEqual({ error: true, message: messages.fillAllFields });
    // A contract's field check is a fragment: the answer names the field before it (an id, a message_id).
    const badId = assertEnvelope(
      await send('get-contact-by-id', '{"contact_id":"nao-e-um-id"}', 'application/json', true),
    );
    expect(badId).toEqual({
      error: true,
      message: messages.fieldInvalid('contact_id', messages.fieldProblems.id),
    });
    const notObject = assertEnvelope(await send('update-user', '[1,2]', 'application/json', true));
    expect(notObject.message).toMatch(/^Dados inválidos\./);
    const unknown = await send('nao-existe', '{}', 'application/json', true);
    expect(unknown.status).toBe(404);
    expect(assertEnvelope(unknown).message).toBe(messages.unknownCall('nao-existe'));
  });

  it('refuses bodies nested deeper than the limit on public and signed-in calls, never a 500', async () => {
    // 10,000 levels overflowed the recursive NUL walk: a 500 and a stack trace in the log, before login too.
    const deepObject = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    const deepArray = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    const deepInKey = `{"email":"dono@demo.com","password":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    const refused = { error: true, message: messages.jsonTooDeep(MAX_JSON_DEPTH) };
    for (const name of ['auth', 'send-password-recovery', 'get-user', 'update-user', 'upload-file']) {
      for (const body of [deepObject, deepArray, deepInKey]) {
        for (const auth of [true, false]) {
          const r = await send(name, body, 'application/json', auth);
          expect(assertEnvelope(r), `${name}, signed in: ${auth}`).toEqual(refused);
          expect(r.status).toBe(400);
        }
      }
    }
    // At the limit it is read as usual: the call answers its own validation message.
    const atLimit = `{"name":${'['.repeat(MAX_JSON_DEPTH - 1)}${']'.repeat(MAX_JSON_DEPTH - 1)}}`;
    const env = assertEnvelope(await send('update-user', atLimit, 'application/json', true));
    expect(env.message).toMatch(/^Campo name: /);
    const over = `{"name":${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}}`;
    expect(assertEnvelope(await send('update-user', over, 'application/json', true))).toEqual(refused);
    expect((await t.call('get-user', {}, token)).email).toBe('dono@demo.com');
  });

  it('refuses strings of 1 MB in every field and bodies over the limit with a clear message', async () => {
    const mb = 'x'.repeat(1024 * 1024);
    for (const name of names) {
      for (const key of keysOf(name)) {
        const r = await send(name, JSON.stringify({ [key]: mb }), 'application/json', true);
        const env = assertEnvelope(r);
        expect(env.error, `${name}.${key}`).toBe(true);
      }
    }
    const huge = await send(
      'update-user',
      JSON.stringify({ name: 'x'.repeat(3 * 1024 * 1024) }),
      'application/json',
      true,
    );
    expect(huge.status).toBe(413);
    expect(assertEnvelope(huge).message).toBe(messages.bodyTooLarge);
    expect((await t.call('get-user', {}, token)).name).toBe('Dona da Loja');
    // Hundreds of 1 MB bodies: about 10 s on an idle 2-core machine, three times that on a busy one.
  }, 120_000);
});
