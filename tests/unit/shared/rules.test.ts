import { describe, expect, it } from 'vitest';
import { messages } from '@/shared/messages';
import { contactVariableError } from '@/shared/rules/contact-variable';
import { prepareDepartment } from '@/shared/rules/department';
import { prepareQuickMessage } from '@/shared/rules/quick-message';
import { keywordError, newTag, prepareTag } from '@/shared/rules/tag';
import { prepareTeamUser } from '@/shared/rules/team-user';
import { transferError } from '@/shared/rules/transfer';

describe('tag rules', () => {
  it('starts with the default colour #00FF00', () => {
    expect(newTag().color).toBe('#00FF00');
  });
  it('checks a keyword before adding it', () => {
    expect(keywordError('', [])).toEqual({ field: 'keyword', message: messages.keywordRequired });
    expect(keywordError('Frete', ['frete'])).toEqual({
      field: 'keyword',
      message: messages.keywordDuplicate,
    });
    expect(keywordError('frete grátis', ['frete'])).toBeNull();
  });
  it('adds a typed keyword on save and clears keywords when auto-tag is off', () => {
    expect(prepareTag({ name: 'A', color: '#00ff00', auto_tag: true, keywords: ['x'] }, ' y ')).toEqual({
      ok: true,
      tag: { name: 'A', color: '#00FF00', auto_tag: true, keywords: ['x', 'y'] },
    });
    expect(prepareTag({ name: 'A', color: '#00FF00', auto_tag: false, keywords: ['x'] }, 'y')).toMatchObject({
      ok: true,
      tag: { keywords: [] },
    });
    expect(prepareTag({ name: 'A', color: '#00FF00', auto_tag: true, keywords: [] }, '')).toEqual({
      ok: false,
      error: { field: 'keyword', message: messages.tagKeywordsRequired },
    });
  });
});

describe('quick message and team rules', () => {
  it('stores the shortcut without its slash', () => {
    expect(prepareQuickMessage({ shortcut: ' /oi ', message: 'Olá' })).toEqual({
      ok: true,
      quickMessage: { shortcut: 'oi', message: 'Olá' },
    });
    expect(prepareQuickMessage({ shortcut: '/', message: 'Olá' })).toEqual({
      ok: false,
      error: { field: 'shortcut', message: messages.quickMessageShortcutRequired },
    });
  });
  it('asks agents for a department and new users for a 6-character password', () => {
    const base = { name: 'A', email: 'a@b.co', user_role: 'user', departments: [], access_areas: [] };
    expect(prepareTeamUser(base, 'update')).toEqual({
      ok: false,
      error: { field: 'departments', message: messages.teamDepartmentRequired },
    });
    expect(prepareTeamUser({ ...base, departments: ['D'], password: '12345' }, 'create')).toEqual({
      ok: false,
      error: { field: 'password', message: messages.teamPasswordTooShort },
    });
    expect(prepareTeamUser({ ...base, user_role: 'manager', departments: ['D'] }, 'update')).toMatchObject({
      ok: true,
      user: { departments: [] },
    });
  });
});

describe('rules answer the field with the message', () => {
  it('points the department, transfer and contact variable rules at their fields', () => {
    expect(prepareDepartment({ name: ' ' })).toEqual({
      ok: false,
      error: { field: 'name', message: messages.nameRequired },
    });
    expect(transferError({ type: 'department' })).toEqual({
      field: 'department',
      message: messages.transferDepartmentRequired,
    });
    expect(transferError({ type: '' })).toEqual({ field: 'type', message: messages.transferTypeRequired });
    expect(contactVariableError('', 'x', [])).toEqual({
      field: 'key',
      message: messages.profileFillAllFields,
    });
    expect(contactVariableError('a', ' ', [])).toEqual({
      field: 'value',
      message: messages.profileFillAllFields,
    });
    expect(contactVariableError('a', 'x', ['a'])).toEqual({
      field: 'key',
      message: messages.contactVariableDuplicate,
    });
  });
  it('points the team rules at the form, the e-mail and the role', () => {
    const base = { name: 'A', email: 'a@b.co', user_role: 'user', departments: ['D'], access_areas: [] };
    expect(prepareTeamUser({ ...base, name: '' }, 'update')).toMatchObject({ error: { field: 'form' } });
    expect(prepareTeamUser({ ...base, email: 'x' }, 'update')).toMatchObject({ error: { field: 'email' } });
    expect(prepareTeamUser({ ...base, user_role: 'owner' }, 'update')).toMatchObject({
      error: { field: 'role' },
    });
  });
});
