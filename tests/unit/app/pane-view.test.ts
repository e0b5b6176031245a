import { describe, expect, it } from 'vitest';
import { canBulkFinish, menuEntries } from '@/app/features/attendance/actions/menu-entries';
import { replyWindowLeft } from '@/app/features/attendance/contact-view';
import { quickQuery } from '@/app/features/attendance/pane/Composer';
import {
  buildRows,
  contactCard,
  dayLabel,
  replyText,
  tickOf,
} from '@/app/features/attendance/pane/pane-view';
import { signed } from '@/app/features/attendance/pane/send-message';
import { displayName, initialsOf } from '@/app/ui/contact-name';
import type { Conversation, Message } from '@/shared/contract/conversations';

const open = { finished: null, is_manual: true, auto_follow_up: true, follow_up_applies: false };

describe('the conversation menu (spec 2 §2.3)', () => {
  const base = ['contact-data', 'edit-name', 'mark-answered', 'schedule', 'assign-tags', 'transfer'] as const;

  it('a human conversation in service', () => {
    expect(menuEntries(open, 'user')).toEqual([...base, 'finish']);
  });

  it('a chatbot conversation offers Atender como humano', () => {
    expect(menuEntries({ ...open, is_manual: false }, 'user')).toEqual([...base, 'serve-as-human', 'finish']);
  });

  it('a finished conversation offers only Retomar atendimento, not Finalizar nor Atender como humano', () => {
    const finished = { ...open, is_manual: false, finished: '2026-05-01T12:00:00.000Z' };
    expect(menuEntries(finished, 'manager')).toEqual([...base, 'resume']);
  });

  it('Desativar follow-up automático only when the conversation has one', () => {
    // New conversations have the switch on, but no follow-up is configured for them: no entry.
    expect(menuEntries(open, 'user')).not.toContain('disable-follow-up');
    const applies = { ...open, follow_up_applies: true };
    expect(menuEntries(applies, 'user')).toEqual([...base, 'disable-follow-up', 'finish']);
    // Switched off by the user: it does not come back in this conversation.
    expect(menuEntries({ ...applies, auto_follow_up: false }, 'user')).not.toContain('disable-follow-up');
  });

  it('bulk finish: the entry for the owner, the dialog for owner and manager', () => {
    expect(menuEntries(open, 'owner').at(-1)).toBe('bulk-finish');
    expect(menuEntries(open, 'manager')).not.toContain('bulk-finish');
    expect(menuEntries(open, 'user')).not.toContain('bulk-finish');
    expect([canBulkFinish('owner'), canBulkFinish('manager'), canBulkFinish('user')]).toEqual([
      true,
      true,
      false,
    ]);
  });
});

const contact = (extra: Partial<Conversation['contact']>): Conversation['contact'] => ({
  _id: 'X'.repeat(28),
  name: '',
  override_name: null,
  phone: '5511987654321',
  tags: [],
  ignore: false,
  profile_picture: null,
  channel_contact_id: null,
  created: '2026-01-01T00:00:00.000Z',
  ...extra,
});

describe('what the pane shows', () => {
  it('the name: override first, then the profile name, then the phone', () => {
    expect(displayName(contact({ name: 'Maria', override_name: 'Maria (VIP)' }))).toBe('Maria (VIP)');
    expect(displayName(contact({ name: 'Maria', override_name: '  ' }))).toBe('Maria');
    expect(displayName(contact({}))).toBe('+55 (11) 98765-4321');
  });

  it('the name never carries bidi controls: a disguised name shows as it really reads', () => {
    // 'Banco\u202Eoicífo' would display as 'Banco oficial'-like text written backwards.
    expect(displayName(contact({ name: 'Banco\u202Eoicífo' }))).toBe('Bancooicífo');
    expect(displayName(contact({ name: 'Maria', override_name: '\u2067Ana\u2069\u200F' }))).toBe('Ana');
    // A name of nothing but controls is no name: the phone is shown.
    expect(displayName(contact({ name: '\u202E', override_name: '\u202D ' }))).toBe('+55 (11) 98765-4321');
    expect(displayName(contact({ name: 'محمد' }))).toBe('محمد');
  });

  it('initials come from the letters of the name only', () => {
    expect(initialsOf('Ana (VIP)')).toBe('Ana VIP');
    expect(initialsOf('+55 (11) 98765-4321')).toBeUndefined();
  });

  it('the reply window in hours and minutes, null once closed', () => {
    const now = Date.parse('2026-05-01T12:00:00.000Z');
    expect(replyWindowLeft('2026-05-01T17:06:30.000Z', now)).toBe('5h 07min');
    expect(replyWindowLeft('2026-05-01T12:00:20.000Z', now)).toBe('0h 01min');
    expect(replyWindowLeft('2026-05-01T11:59:00.000Z', now)).toBeNull();
    expect(replyWindowLeft('inválida', now)).toBeNull();
  });

  it('ticks: ✓ sent, ✓✓ delivered, read at 4 or more, failed', () => {
    expect(tickOf({ status: 0, provisional: true })).toBe('pending');
    expect(tickOf({ status: 1 })).toBe('sent');
    expect(tickOf({ status: 3 })).toBe('delivered');
    expect(tickOf({ status: 4 })).toBe('read');
    expect(tickOf({ status: 5 })).toBe('read');
    expect(tickOf({ status: -1 })).toBe('failed');
  });

  it('rows: Carregar mais first when there is more, a separator per day', () => {
    const now = new Date(2026, 4, 10, 15, 0);
    const m = (id: string, d: Date) => ({ _id: id, message_id: null, created: d.toISOString() }) as Message;
    const rows = buildRows(
      [m('a', new Date(2026, 4, 1, 9)), m('b', new Date(2026, 4, 9, 9)), m('c', new Date(2026, 4, 10, 8))],
      true,
      now,
    );
    expect(rows.map((r) => (r.kind === 'day' ? r.label : r.kind))).toEqual([
      'more',
      '01/05/2026',
      'message',
      'Ontem',
      'message',
      'Hoje',
      'message',
    ]);
    expect(buildRows([], false)).toEqual([]);
    expect(dayLabel('x')).toBe('');
  });

  it('a provisional message and its server copy share a row key', () => {
    const local = { _id: 'local-abc', message_id: 'abcdefgh', created: new Date().toISOString() } as Message;
    const stored = { ...local, _id: 'S'.repeat(28) };
    expect(buildRows([local], false)[1]?.key).toBe(buildRows([stored], false)[1]?.key);
  });

  it('a shared contact: the vCard’s name and phones, or the text', () => {
    const vcard =
      'BEGIN:VCARD\nVERSION:3.0\nN:Silva;Ana;;;\nFN:Ana Silva\nitem1.TEL;waid=5511999990000:+55 11 99999-0000\nEND:VCARD';
    expect(contactCard(vcard)).toEqual({ name: 'Ana Silva', phones: ['+55 11 99999-0000'] });
    expect(contactCard('BEGIN:VCARD\nN:Silva;Ana;;;\nEND:VCARD').name).toBe('Ana Silva');
    expect(contactCard('João')).toEqual({ name: 'João', phones: [] });
  });

  it('a reply preview names media', () => {
    expect(replyText({ type: 'image', message: '' })).toBe('Imagem');
    expect(replyText({ type: 'document', message: 'contrato' })).toBe('Documento: contrato');
    expect(replyText({ type: 'text', message: ' oi ' })).toBe('oi');
  });
});

describe('the command bar', () => {
  it("'/' at the start opens the quick messages, until a space", () => {
    expect(quickQuery('/')).toBe('');
    expect(quickQuery('/Ola')).toBe('ola');
    expect(quickQuery('/ola mundo')).toBeNull();
    expect(quickQuery('oi /ola')).toBeNull();
  });

  it('the signature as the server applies it', () => {
    expect(signed('Oi', 'Ana', true)).toBe('*Ana*:\nOi');
    expect(signed('Oi', 'Ana', false)).toBe('Oi');
    expect(signed('', 'Ana', true)).toBe('');
  });
});
