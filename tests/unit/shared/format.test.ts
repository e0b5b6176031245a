import { describe, expect, it } from 'vitest';
import {
  abbreviateNumber,
  badgeCount,
  formatDateTime,
  formatPhone,
  maskPhone,
  truncatePreview,
  withoutBidiControls,
} from '@/shared/format';
import { ID_PATTERN, newId } from '@/shared/ids';

describe('formatDateTime', () => {
  it('writes dd/MM/yyyy HH:mm with zero padding', () => {
    expect(formatDateTime(new Date(2025, 8, 1, 7, 5))).toBe('01/09/2025 07:05');
    expect(formatDateTime(new Date(2024, 11, 31, 23, 59))).toBe('31/12/2024 23:59');
  });
  it('accepts ISO strings and timestamps, and gives nothing for an invalid date', () => {
    const d = new Date(2025, 0, 2, 3, 4);
    expect(formatDateTime(d.toISOString())).toBe('02/01/2025 03:04');
    expect(formatDateTime(d.getTime())).toBe('02/01/2025 03:04');
    expect(formatDateTime('ontem')).toBe('');
  });
});

describe('formatPhone', () => {
  it('formats mobiles and landlines as +CC (AA) N-N', () => {
    expect(formatPhone('5511987654321')).toBe('+55 (11) 98765-4321');
    expect(formatPhone('551133334444')).toBe('+55 (11) 3333-4444');
    expect(formatPhone('+55 (21) 99999-0000')).toBe('+55 (21) 99999-0000');
  });
  it('leaves other numbers as +digits', () => {
    expect(formatPhone('1234')).toBe('+1234');
    expect(formatPhone('')).toBe('');
  });
});

describe('maskPhone', () => {
  it('applies (##) #####-#### as the user types', () => {
    expect(maskPhone('1')).toBe('(1');
    expect(maskPhone('119')).toBe('(11) 9');
    expect(maskPhone('1198765')).toBe('(11) 98765');
    expect(maskPhone('11987654321')).toBe('(11) 98765-4321');
    expect(maskPhone('11987654321999')).toBe('(11) 98765-4321');
    expect(maskPhone('abc')).toBe('');
  });
});

describe('abbreviateNumber', () => {
  it('abbreviates with k and M and a decimal comma', () => {
    expect(abbreviateNumber(0)).toBe('0');
    expect(abbreviateNumber(999)).toBe('999');
    expect(abbreviateNumber(1000)).toBe('1k');
    expect(abbreviateNumber(1234)).toBe('1,2k');
    expect(abbreviateNumber(1999)).toBe('1,9k');
    expect(abbreviateNumber(999_999)).toBe('999,9k');
    expect(abbreviateNumber(3_456_789)).toBe('3,4M');
    expect(abbreviateNumber(-2500)).toBe('-2,5k');
  });
});

describe('truncatePreview', () => {
  it('keeps 60 characters, cuts longer text to 59 plus an ellipsis', () => {
    const sixty = 'a'.repeat(60);
    expect(truncatePreview(sixty)).toBe(sixty);
    const cut = truncatePreview('b'.repeat(61));
    expect(cut).toBe(`${'b'.repeat(59)}…`);
    expect(Array.from(cut)).toHaveLength(60);
  });
  it('never splits an emoji', () => {
    const cut = truncatePreview('😀'.repeat(70));
    expect(cut).toBe(`${'😀'.repeat(59)}…`);
  });
});

describe('badgeCount and ids', () => {
  it("caps the badge at '9+'", () => {
    expect(badgeCount(9)).toBe('9');
    expect(badgeCount(10)).toBe('9+');
  });
  it('makes 28-character ids of digits and capital letters, all distinct', () => {
    const ids = new Set(Array.from({ length: 2000 }, newId));
    expect(ids.size).toBe(2000);
    for (const id of ids) expect(id).toMatch(ID_PATTERN);
  });
});

describe('withoutBidiControls', () => {
  it('removes every bidi control: embeddings, overrides, isolates and marks', () => {
    // 'fatura\u202Efdp.exe' displays as 'faturaexe.pdf'.
    expect(withoutBidiControls('fatura\u202Efdp.exe')).toBe('faturafdp.exe');
    const controls = [
      '\u202A',
      '\u202B',
      '\u202C',
      '\u202D',
      '\u202E',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
    ];
    for (const c of [...controls, '\u200E', '\u200F', '\u061C']) {
      expect(withoutBidiControls(`a${c}b${c}`), `U+${c.charCodeAt(0).toString(16)}`).toBe('ab');
    }
  });
  it('keeps right-to-left letters, accents, emoji and the zero-width joiner of an emoji', () => {
    for (const name of ['محمد', 'שלום.pdf', 'João Ñandú', '👩‍💻 Ana', 'nota fiscal (1).pdf', '']) {
      expect(withoutBidiControls(name)).toBe(name);
    }
  });
});
