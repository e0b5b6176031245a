import { describe, expect, it } from 'vitest';
import { messages } from '@/shared/messages';
import { normalizePhone } from '@/shared/phone';
import { cleanChipName, prepareChip } from '@/shared/rules/chip';

describe('normalizePhone', () => {
  it('stores digits with the country code; Brazil (55) when none is given', () => {
    expect(normalizePhone('(11) 98765-4321')).toBe('5511987654321');
    expect(normalizePhone('+55 11 98765-4321')).toBe('5511987654321');
    expect(normalizePhone('1133334444')).toBe('551133334444');
    expect(normalizePhone('+1 415 555 2671')).toBe('14155552671');
    expect(normalizePhone('+44 7911 123456')).toBe('447911123456');
  });
  it('adds the ninth digit WhatsApp leaves out of older Brazilian mobiles, so one person is one contact', () => {
    expect(normalizePhone('551187654321')).toBe('5511987654321');
    // A landline keeps its eight digits.
    expect(normalizePhone('551133334444')).toBe('551133334444');
  });
  it('refuses what is not a phone number', () => {
    for (const bad of ['', 'abc', '5511', '123456789012345678', '+55 00 0000-0000']) {
      expect(normalizePhone(bad), bad).toBeNull();
    }
  });
});

describe('channel rules (spec 3 §5)', () => {
  it('strips accents and everything but letters, digits and spaces', () => {
    expect(cleanChipName('  Atenção #1 — São João!  ')).toBe('Atencao 1 Sao Joao');
  });
  it('checks name, first service, its chatbot or flow, and department, in that order', () => {
    const ok = { name: 'Loja', redirect: 'human' as const, department: 'D' };
    expect(prepareChip({ ...ok, name: '!!' })).toEqual({
      ok: false,
      error: { field: 'name', message: messages.chipNameRequired },
    });
    expect(prepareChip({ ...ok, redirect: '' })).toEqual({
      ok: false,
      error: { field: 'redirect', message: messages.chipRedirectRequired },
    });
    expect(prepareChip({ ...ok, redirect: 'ai_chatbot' })).toEqual({
      ok: false,
      error: { field: 'chatbot', message: messages.chipChatbotRequired },
    });
    expect(prepareChip({ ...ok, redirect: 'flow_chatbot' })).toEqual({
      ok: false,
      error: { field: 'flow', message: messages.chipFlowRequired },
    });
    expect(prepareChip({ ...ok, department: '' })).toEqual({
      ok: false,
      error: { field: 'department', message: messages.chipDepartmentRequired },
    });
    expect(prepareChip({ ...ok, redirect: 'flow_chatbot', flow: 'F', chatbot: 'C' })).toEqual({
      ok: true,
      chip: { name: 'Loja', redirect: 'flow_chatbot', flow: 'F', chatbot: null, department: 'D' },
    });
  });
});
