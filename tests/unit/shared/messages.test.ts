// Catalogue texts whose wording depends on a number, and the spec's wording where two were in use.
import { expect, it } from 'vitest';
import { labels, messages } from '@/shared/messages';
import { offerLabels } from '@/shared/messages-billing';
import { officialCampaignLabels } from '@/shared/messages-campaigns';

it('says one contact in the singular', () => {
  expect(messages.contactsFound(1)).toBe('Foi encontrado 1 contato');
  expect(messages.contactsFound(0)).toBe('Foram encontrados 0 contatos');
  expect(messages.contactsFound(12)).toBe('Foram encontrados 12 contatos');
  expect(messages.importAnalysis(1, 1)).toBe('Foi encontrado 1 contato válido em 1 linha.');
  expect(messages.importAnalysis(2, 5)).toBe('Foram encontrados 2 contatos válidos em 5 linhas.');
});

it('words the 6-character password rule as the spec does (spec 1 §5, spec 3 §5)', () => {
  expect(messages.passwordTooShort).toBe('A senha deve ter pelo menos 6 dígitos');
  expect(messages.teamPasswordTooShort).toBe('A senha precisa ter pelo menos 6 dígitos');
});

it('puts a count and its noun in agreement (1 canal, 2 fluxos)', () => {
  expect(offerLabels.limitsSummary(1, 1, 1)).toBe('1 canal · 1 usuário · 1 fluxo');
  expect(offerLabels.limitsSummary(2, 3, 4)).toBe('2 canais · 3 usuários · 4 fluxos');
  expect(labels.chips.moreChips(1)).toBe('Mais 1 chip');
  expect(labels.history.nConversations(1)).toBe('1 conversa');
  expect(messages.importProgress(0, 1)).toBe('Importando 0 de 1 contato…');
  expect(officialCampaignLabels.deliveredRead(1, 0)).toBe('1 entregue · 0 lidas');
});
