// A webhook's field mapping (spec 3 §2.13, §5 Webhook save): paths with dots and [index], the sample's paths
// with example values, fields joining their paths' values, and what a save must have.
import { describe, expect, it } from 'vitest';
import { webhookMessages as M } from '@/shared/messages-webhooks';
import { readJsonPath as readPath } from '@/shared/rules/json-path';
import {
  fieldValue,
  listPaths,
  mapFields,
  parseSample,
  valueText,
  webhookSaveProblems,
  withExamples,
} from '@/shared/rules/webhook-mapping';

const order = {
  evento: 'pedido_pago',
  pedido: {
    numero: 1042,
    pago: true,
    itens: [{ produto: 'Camiseta' }, { produto: 'Boné', tags: ['a', 'b'] }],
  },
  cliente: { nome: 'Maria', sobrenome: 'Silva', telefones: ['+55 11 98765-4321', '11 3333-4444'] },
  vazio: [],
  nada: null,
  'chave.com.ponto': 'x',
};

describe('the paths a field reads (rules/json-path.ts)', () => {
  it('reads nested objects and array items', () => {
    expect(readPath(order, 'cliente.nome')).toBe('Maria');
    expect(readPath(order, 'pedido.itens[1].produto')).toBe('Boné');
    expect(readPath(order, 'cliente.telefones[0]')).toBe('+55 11 98765-4321');
    expect(readPath(order, 'pedido.itens[1].tags[1]')).toBe('b');
    expect(readPath([{ a: 1 }], '[0].a')).toBe(1);
  });
  it('answers undefined for paths that match nothing', () => {
    expect(readPath(order, 'cliente.idade')).toBeUndefined();
    expect(readPath(order, 'pedido.itens[5].produto')).toBeUndefined();
    expect(readPath(order, 'pedido.numero.x')).toBeUndefined();
    expect(readPath(order, 'pedido[0]')).toBeUndefined();
    expect(readPath(order, 'cliente.telefones.length')).toBeUndefined();
    expect(readPath(order, 'constructor')).toBeUndefined();
    expect(readPath(order, '__proto__')).toBeUndefined();
  });
});

describe('values and joins', () => {
  it('turns values into text', () => {
    expect(valueText(1042)).toBe('1042');
    expect(valueText(true)).toBe('true');
    expect(valueText(null)).toBe('');
    expect(valueText(['a', 'b'])).toBe('a, b');
    expect(valueText({ a: 1 })).toBe('{"a":1}');
  });
  it('joins the chosen paths with a space, skipping those that match nothing', () => {
    expect(fieldValue(order, ['cliente.nome', 'cliente.sobrenome'])).toBe('Maria Silva');
    expect(fieldValue(order, ['cliente.nome', 'cliente.meio', 'cliente.sobrenome'])).toBe('Maria Silva');
    expect(fieldValue(order, ['pedido.itens[0].produto', 'pedido.itens[1].produto'])).toBe('Camiseta Boné');
    expect(fieldValue(order, ['cliente.telefones'])).toBe('+55 11 98765-4321, 11 3333-4444');
    expect(fieldValue(order, [])).toBe('');
  });
  it('maps every named field', () => {
    expect(
      mapFields(order, [
        { name: 'telefone', origin: ['cliente.telefones[0]'] },
        { name: 'nome', origin: ['cliente.nome', 'cliente.sobrenome'] },
        { name: '', origin: ['evento'] },
      ]),
    ).toEqual({ telefone: '+55 11 98765-4321', nome: 'Maria Silva' });
  });
});

describe('listPaths', () => {
  it('lists every leaf with its example, in document order', () => {
    expect(listPaths(order)).toEqual([
      { path: 'evento', example: 'pedido_pago' },
      { path: 'pedido.numero', example: '1042' },
      { path: 'pedido.pago', example: 'true' },
      { path: 'pedido.itens[0].produto', example: 'Camiseta' },
      { path: 'pedido.itens[1].produto', example: 'Boné' },
      { path: 'pedido.itens[1].tags[0]', example: 'a' },
      { path: 'pedido.itens[1].tags[1]', example: 'b' },
      { path: 'cliente.nome', example: 'Maria' },
      { path: 'cliente.sobrenome', example: 'Silva' },
      { path: 'cliente.telefones[0]', example: '+55 11 98765-4321' },
      { path: 'cliente.telefones[1]', example: '11 3333-4444' },
      { path: 'vazio', example: '' },
      { path: 'nada', example: '' },
    ]);
  });
  it('stops at the limit and reads each listed path back to its example', () => {
    const big = { itens: Array.from({ length: 2000 }, (_, i) => ({ n: i })) };
    const listed = listPaths(big, 100);
    expect(listed).toHaveLength(100);
    for (const p of listPaths(order)) expect(valueText(readPath(order, p.path))).toBe(p.example);
  });
});

describe('the sample and a save', () => {
  it('parses the sample: empty is null, not JSON is undefined', () => {
    expect(parseSample('')).toBeNull();
    expect(parseSample('{"a":1}')).toEqual({ a: 1 });
    expect(parseSample('{"a":')).toBeUndefined();
    expect(withExamples([{ origin: ['a'] }], undefined)).toEqual([{ origin: ['a'], value: '' }]);
    expect(withExamples([{ origin: ['a'] }], { a: 2 })).toEqual([{ origin: ['a'], value: '2' }]);
  });
  it('needs telefone first and mapped, named fields once each, and JSON data', () => {
    const ok = { data: '{"p":"1"}', fields: [{ name: 'telefone', origin: ['p'] }] };
    expect(webhookSaveProblems(ok)).toEqual([]);
    expect(webhookSaveProblems({ ...ok, fields: [{ name: 'telefone', origin: [] }] })[0]).toEqual({
      field: 'fields.0',
      message: M.phoneNotMapped,
    });
    expect(webhookSaveProblems({ ...ok, fields: [{ name: 'fone', origin: ['p'] }] })[0]?.message).toBe(
      M.phoneFieldFixed,
    );
    expect(webhookSaveProblems({ ...ok, data: '{' })).toEqual([{ field: 'data', message: M.dataNotJson }]);
    const fields = [
      ...ok.fields,
      { name: 'nome', origin: [] },
      { name: 'nome', origin: [] },
      { name: ' ', origin: [] },
    ];
    expect(webhookSaveProblems({ ...ok, fields })).toEqual([
      { field: 'fields.2', message: M.fieldNameRepeated },
      { field: 'fields.3', message: M.fieldNameRequired },
    ]);
  });
});
