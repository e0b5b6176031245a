// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { matchAutoTags } from '@/server/domains/tags/auto-tag';

const tags = [
  { id: 'orcamento', autoTag: true, keywords: ['orçamento', 'preço'] },
  { id: 'entrega', autoTag: true, keywords: ['prazo de entrega', 'frete grátis'] },
  { id: 'pao', autoTag: true, keywords: ['pão'] },
  { id: 'manual', autoTag: false, keywords: ['orçamento'] },
  { id: 'wifi', autoTag: true, keywords: ['wi-fi'] },
];

describe('matchAutoTags', () => {
  it('matches ignoring case and accents, both ways', () => {
    expect(matchAutoTags('Queria um ORCAMENTO, por favor', tags)).toEqual(['orcamento']);
    expect(matchAutoTags('qual o preco?', tags)).toEqual(['orcamento']);
    expect(matchAutoTags('Quero PÃO', tags)).toEqual(['pao']);
  });

  it('matches whole words only', () => {
    expect(matchAutoTags('um pãozinho, por favor', tags)).toEqual([]);
    expect(matchAutoTags('orçamentos', tags)).toEqual([]);
    expect(matchAutoTags('(orçamento)', tags)).toEqual(['orcamento']);
  });

  it('matches multi-word keywords as a sequence, across punctuation and extra spaces', () => {
    expect(matchAutoTags('Qual o  PRAZO de\nentrega?', tags)).toEqual(['entrega']);
    expect(matchAutoTags('tem frete... grátis?', tags)).toEqual(['entrega']);
    expect(matchAutoTags('o prazo para a entrega', tags)).toEqual([]);
    expect(matchAutoTags('a senha do wi fi', tags)).toEqual(['wifi']);
  });

  it('gives every matching tag once, and ignores tags with auto-tag off', () => {
    expect(matchAutoTags('orçamento com frete grátis e preço', tags)).toEqual(['orcamento', 'entrega']);
    expect(matchAutoTags('', tags)).toEqual([]);
    expect(matchAutoTags('!!!', tags)).toEqual([]);
    expect(matchAutoTags('orçamento', [{ id: 'x', autoTag: true, keywords: ['', '  '] }])).toEqual([]);
  });
});
