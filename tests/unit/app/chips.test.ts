import { describe, expect, it } from 'vitest';
import { topBarChips } from '@/app/lib/chips';

const chip = (name: string, status: 'open' | 'close' | 'connecting' | 'new') => ({ name, status });

describe('top-bar chips (spec 1 "Shell elements")', () => {
  it('shows up to five chips as they come', () => {
    const five = [
      chip('a', 'open'),
      chip('b', 'close'),
      chip('c', 'open'),
      chip('d', 'new'),
      chip('e', 'open'),
    ];
    expect(topBarChips(five)).toEqual({ shown: five, hidden: 0 });
    expect(topBarChips([])).toEqual({ shown: [], hidden: 0 });
  });

  it('above five: four chips, not-connected first, and the rest behind the overflow icon', () => {
    const six = [
      chip('a', 'open'),
      chip('b', 'open'),
      chip('c', 'close'),
      chip('d', 'open'),
      chip('e', 'connecting'),
      chip('f', 'open'),
    ];
    const { shown, hidden } = topBarChips(six);
    expect(shown.map((c) => c.name)).toEqual(['c', 'e', 'a', 'b']);
    expect(hidden).toBe(2);
  });

  it('with many disconnected chips, the four shown are all disconnected', () => {
    const chips = Array.from({ length: 9 }, (_, i) => chip(`c${i}`, i % 2 ? 'open' : 'close'));
    const { shown, hidden } = topBarChips(chips);
    expect(shown.map((c) => c.status)).toEqual(['close', 'close', 'close', 'close']);
    expect(hidden).toBe(5);
  });
});
