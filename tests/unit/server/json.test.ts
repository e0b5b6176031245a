// The body walks of the API route: iterative, so no body depth overflows them.
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, nestedDeeperThan, pathOfNul } from '@/server/http/json';

const nested = (levels: number) => JSON.parse(`${'['.repeat(levels)}${']'.repeat(levels)}`);

describe('nestedDeeperThan', () => {
  it('counts objects and lists as levels, scalars as none', () => {
    expect(nestedDeeperThan(null, 0)).toBe(false);
    expect(nestedDeeperThan('x', 0)).toBe(false);
    expect(nestedDeeperThan({}, 1)).toBe(false);
    expect(nestedDeeperThan({}, 0)).toBe(true);
    expect(nestedDeeperThan({ a: [1, { b: 2 }] }, 3)).toBe(false);
    expect(nestedDeeperThan({ a: [1, { b: 2 }] }, 2)).toBe(true);
    expect(nestedDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(nestedDeeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
  });

  it('walks 100,000 levels without overflowing the stack', () => {
    expect(nestedDeeperThan(nested(100_000))).toBe(true);
    expect(pathOfNul(nested(20_000))).toBeNull();
  });
});

describe('pathOfNul', () => {
  it('names the first key or string holding U+0000, in the order of the body', () => {
    expect(pathOfNul('a\u0000')).toBe('');
    expect(pathOfNul({ a: 'ok', b: ['x', 'y\u0000'] })).toBe('b.1');
    expect(pathOfNul({ a: { b: 'x\u0000' }, c: 'y\u0000' })).toBe('a.b');
    expect(pathOfNul({ a: { 'k\u0000': 1 } })).toBe('a.k\u0000');
    expect(pathOfNul({ a: 1, b: null, c: [true] })).toBeNull();
  });
});
