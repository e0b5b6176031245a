import { describe, expect, it } from 'vitest';
import { jsonPathSteps, readJsonPath } from '@/shared/rules/json-path';

describe('readJsonPath', () => {
  const body = {
    phone: '5511999999999',
    contact: { phone: '+55 11 98888-7777', tags: ['a', 'b'] },
    data: { items: [{ phone: '1' }, { phone: '2', list: [[0, 'x']] }] },
    'with space': { ok: true },
  };

  it('reads keys, nested keys and [index] steps', () => {
    expect(readJsonPath(body, 'phone')).toBe('5511999999999');
    expect(readJsonPath(body, 'contact.phone')).toBe('+55 11 98888-7777');
    expect(readJsonPath(body, 'contact.tags[1]')).toBe('b');
    expect(readJsonPath(body, 'data.items[1].phone')).toBe('2');
    expect(readJsonPath(body, 'data.items[1].list[0][1]')).toBe('x');
    expect(readJsonPath(body, 'with space.ok')).toBe(true);
    expect(readJsonPath([{ a: 1 }], '[0].a')).toBe(1);
  });

  it('answers undefined for a path that leads nowhere, never the prototype', () => {
    expect(readJsonPath(body, 'missing')).toBeUndefined();
    expect(readJsonPath(body, 'contact.tags[5]')).toBeUndefined();
    expect(readJsonPath(body, 'contact[0]')).toBeUndefined();
    expect(readJsonPath(body, 'phone.length')).toBeUndefined();
    expect(readJsonPath(body, '__proto__')).toBeUndefined();
    expect(readJsonPath(body, 'contact.constructor')).toBeUndefined();
    expect(readJsonPath(body, 'contact.tags.length')).toBeUndefined();
    expect(readJsonPath(null, 'a')).toBeUndefined();
  });

  it('refuses malformed paths', () => {
    for (const bad of ['', '.a', 'a.', 'a..b', 'a[', 'a[x]', 'a[0]b', 'a]', 'x'.repeat(201)])
      expect(jsonPathSteps(bad), bad).toBeNull();
    expect(jsonPathSteps('a.b[2].c')).toEqual(['a', 'b', 2, 'c']);
  });
});
