import { describe, expect, it } from 'vitest';
import { messages } from '@/shared/messages';
import {
  prepareScheduledMessage,
  scheduledPreview,
  splitStoredPhone,
} from '@/shared/rules/scheduled-message';

const now = new Date('2026-01-10T12:00:00Z');
const base = {
  chip: 'CHIP',
  country_code: '55',
  to: '11987654321',
  type: 'text' as 'text' | 'flow',
  message: 'Oi',
  scheduledTo: '2026-01-10T13:00:00Z',
};
const unofficial = { official: false };

describe('prepareScheduledMessage', () => {
  it('checks the fields in the spec order', () => {
    const error = (input: Partial<typeof base> & Record<string, unknown>, chip = unofficial) => {
      const r = prepareScheduledMessage({ ...base, ...input }, chip, now);
      return r.ok ? null : r.error;
    };
    expect(error({ chip: '' })).toEqual({ field: 'chip', message: messages.scheduleChipRequired });
    expect(error({}, null as never)).toEqual({ field: 'chip', message: messages.scheduleChipRequired });
    expect(error({ to: ' ' })).toEqual({ field: 'to', message: messages.scheduleToRequired });
    expect(error({ scheduledTo: '' })).toEqual({ field: 'when', message: messages.scheduleDateRequired });
    expect(error({ to: '(11) 98765-4321' })).toEqual({ field: 'to', message: messages.invalidPhone });
    expect(error({ country_code: '+55' })).toEqual({
      field: 'country',
      message: messages.scheduleCountryCodeInvalid,
    });
    expect(error({ message: '' })).toEqual({ field: 'message', message: messages.scheduleTextRequired });
    expect(error({ type: 'flow' })).toEqual({ field: 'flow', message: messages.scheduleFlowRequired });
    expect(error({ message: '' }, { official: true })).toEqual({
      field: 'template',
      message: messages.scheduleTemplateRequired,
    });
    expect(error({ scheduledTo: '2026-01-10T11:59:00Z' })).toEqual({
      field: 'when',
      message: messages.scheduleDateInPast,
    });
    expect(error({ to: '123' })).toEqual({ field: 'to', message: messages.invalidPhone });
  });

  it('answers the number with its country code; an empty code is 55', () => {
    expect(prepareScheduledMessage(base, unofficial, now)).toMatchObject({ ok: true, to: '5511987654321' });
    expect(prepareScheduledMessage({ ...base, country_code: '' }, unofficial, now)).toMatchObject({
      to: '5511987654321',
    });
    expect(
      prepareScheduledMessage({ ...base, country_code: '1', to: '2025550123' }, unofficial, now),
    ).toMatchObject({ to: '12025550123' });
  });
});

describe('splitStoredPhone', () => {
  it('strips a leading 55 into the country code, and reads other codes', () => {
    expect(splitStoredPhone('5511987654321')).toEqual({ country_code: '55', to: '11987654321' });
    expect(splitStoredPhone('12025550123')).toEqual({ country_code: '1', to: '2025550123' });
  });
});

describe('scheduledPreview', () => {
  it('keeps 80 characters, cuts longer ones to 79 and an ellipsis, and shows Fluxo for flows', () => {
    const eighty = 'a'.repeat(80);
    expect(scheduledPreview({ type: 'text', message: eighty })).toBe(eighty);
    expect(scheduledPreview({ type: 'text', message: `${eighty}b` })).toBe(`${'a'.repeat(79)}…`);
    expect(scheduledPreview({ type: 'flow', message: 'x' })).toBe('Fluxo');
    expect(scheduledPreview({ type: 'text', message: '', template: { preview: 'Olá' } })).toBe('Olá');
  });
});
