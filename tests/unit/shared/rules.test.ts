import { describe, expect, it } from 'vitest';
import { messages } from '@/shared/messages';
import { prepareQuickMessage } from '@/shared/rules/quick-message';
import { keywordError, newTag, prepareTag } from '@/shared/rules/tag';
import { prepareTeamUser } from '@/shared/rules/team-user';

describe('tag rules', () => {
  it('starts with the default colour #00FF00', () => {
    expect(newTag().color).toBe('#00FF00');
  });
  it('checks a keyword before adding it', () => {
    expect(keywordError('', [])).toBe(messages.keywordRequired);
    expect(keywordError('Frete', ['frete'])).toBe(messages.keywordDuplicate);
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
      error: messages.tagKeywordsRequired,
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
      error: messages.quickMessageShortcutRequired,
    });
  });
  it('asks agents for a department and new users for a 6-character password', () => {
    const base = { name: 'A', email: 'a@b.co', user_role: 'user', departments: [], access_areas: [] };
    expect(prepareTeamUser(base, 'update')).toEqual({ ok: false, error: messages.teamDepartmentRequired });
    expect(prepareTeamUser({ ...base, departments: ['D'], password: '12345' }, 'create')).toEqual({
      ok: false,
      error: messages.teamPasswordTooShort,
    });
    expect(prepareTeamUser({ ...base, user_role: 'manager', departments: ['D'] }, 'update')).toMatchObject({
      ok: true,
      user: { departments: [] },
    });
  });
});
