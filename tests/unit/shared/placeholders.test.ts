// The one placeholder filler (flows, campaigns, chatbots): {nome} reads the contact's name, or its variable
// 'nome' when it has none (a webhook's mapping), and every other key its variables.
import { describe, expect, it } from 'vitest';
import { fillPlaceholders } from '@/shared/rules/placeholders';

describe('fillPlaceholders', () => {
  it('reads the name, else the variable nome; other keys from the variables; nothing for a missing one', () => {
    const mapped = { name: '', data: { nome: 'Joana Lima', pedido: 7 } };
    expect(fillPlaceholders('Olá, {nome:first}! Pedido {pedido}. {nome} {nada}', mapped)).toBe(
      'Olá, Joana! Pedido 7. Joana Lima ',
    );
    // A name the contact has wins over the variable.
    expect(fillPlaceholders('{nome:first}', { name: 'Ana Souza', data: { nome: 'Joana' } })).toBe('Ana');
    expect(fillPlaceholders('{nome}', null, { missing: '?' })).toBe('?');
    expect(fillPlaceholders('{x}', { name: '', data: { x: ' a\nb ' } }, { shape: (v) => v.trim() })).toBe(
      'a\nb',
    );
  });
});
