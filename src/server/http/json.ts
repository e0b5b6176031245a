// Walks over request bodies that never recurse: a body is untrusted input, and a JavaScript recursion over
// one 10,000 levels deep overflows the stack (a 500 before login). Bodies are refused past MAX_JSON_DEPTH.

import { messages } from '../../shared/messages';
import { AppError } from './errors';

/** Deeper than any body a call or a webhook needs (a few levels), far below any stack limit. */
export const MAX_JSON_DEPTH = 64;

/** Whether arrays and objects nest deeper than `max` levels ({} is 1, {"a":[]} is 2). */
export function nestedDeeperThan(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [inner, depth] = next;
    if (!inner || typeof inner !== 'object') continue;
    if (depth > max) return true;
    for (const child of Object.values(inner)) {
      if (child && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** The path of the first key or string holding U+0000 ('' for the body itself), or null. */
export function pathOfNul(value: unknown): string | null {
  // Depth first, children in order, so the path named is the first one in the body.
  const stack: [unknown, string][] = [[value, '']];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [inner, path] = next;
    if (typeof inner === 'string') {
      if (inner.includes('\u0000')) return path;
      continue;
    }
    if (!inner || typeof inner !== 'object') continue;
    const entries = Object.entries(inner);
    for (const [key] of entries) {
      if (key.includes('\u0000')) return path ? `${path}.${key}` : key;
    }
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, child] = entries[i] as [string, unknown];
      stack.push([child, path ? `${path}.${key}` : key]);
    }
  }
  return null;
}

/**
 * Reads a request body as JSON, leniently (an empty body is {}; any content type is read as JSON, as curl -d
 * sends form-encoded by default), for Fastify's addContentTypeParser('*', { parseAs: 'string' }, …). Not JSON
 * is refused with `invalidStatus` (the app's calls answer their envelope with 200, the public API 400); nested
 * past MAX_JSON_DEPTH is a 400 before anything walks it.
 */
export const jsonBodyParser =
  (invalidStatus: number) =>
  (_req: unknown, body: string | Buffer, done: (err: Error | null, value?: unknown) => void) => {
    const text = String(body).trim();
    if (text === '') return done(null, {});
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return done(new AppError(messages.invalidJson, invalidStatus), undefined);
    }
    if (nestedDeeperThan(parsed))
      return done(new AppError(messages.jsonTooDeep(MAX_JSON_DEPTH), 400), undefined);
    done(null, parsed);
  };
