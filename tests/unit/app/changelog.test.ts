// 'Novidades' tells what the product has: every area a person uses appears in some release.
import { expect, it } from 'vitest';
import { CHANGELOG } from '@/app/shell/changelog';

it('lists releases newest first, each with its changes', () => {
  const days = CHANGELOG.map((r) => r.date.split('/').reverse().join('-'));
  expect([...days].sort().reverse()).toEqual(days);
  expect(new Set(CHANGELOG.map((r) => r.version)).size).toBe(CHANGELOG.length);
  for (const r of CHANGELOG) {
    expect(r.date).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
    expect(r.changes.length).toBeGreaterThan(0);
  }
});

it('covers what the product has', () => {
  const text = CHANGELOG.flatMap((r) => r.changes).join(' ');
  for (const area of [
    'Atendimento',
    'Sem conexão',
    'Biblioteca de mídia',
    'Gravação de áudio',
    'Agendamento',
    'Contatos',
    'Conversas finalizadas',
    'inteligência artificial',
    'Tags, departamentos, equipe e mensagens rápidas',
    'Chips',
  ]) {
    expect(text, area).toContain(area);
  }
});
