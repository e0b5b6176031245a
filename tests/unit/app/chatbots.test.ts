// The chatbot editor's own logic: the draft of a saved chatbot and its "unsaved changes" fingerprint, the
// personality chips' limit with the spec's warning, each field's message, a server refusal's field, the
// 'Testar chatbot' lines and what a turn adds (answer, transfer message, the hand-over's mark), the pickers'
// options, and the model dialog's required fields.
import { describe, expect, it } from 'vitest';
import {
  characterCount,
  draftOf,
  entriesOfTurn,
  fingerprint,
  MAX_TEST_LINES,
  problemsByField,
  refusalField,
  type TestEntry,
  testLinesOf,
  togglePersonality,
  transferTitle,
} from '@/app/features/chatbots/chatbot-editor';
import { chatbotOptions } from '@/app/lib/lists';
import type { Chatbot, ChatbotDraft } from '@/shared/contract/chatbots';
import { messages } from '@/shared/messages';
import { chatbotLabels } from '@/shared/messages-editors';
import { contextWarning, draftFromModel, newChatbotDraft } from '@/shared/rules/chatbot';
import { CHATBOT_MODELS } from '@/shared/rules/chatbot-models';

const valid = (): ChatbotDraft => ({
  ...newChatbotDraft(),
  name: 'Atendimento Loja',
  instructionsObject: {
    persona_name: 'Ana',
    persona_gender: 'feminina',
    persona_mission: 'Atender os clientes da loja.',
    personality_types: ['Amigável'],
    fallback: messages.chatbotNoInformation,
    context: 'A loja abre às 9h.',
  },
});

describe('the saved chatbot in the form', () => {
  const saved: Chatbot = {
    ...valid(),
    _id: 'C'.repeat(28),
    model: null,
    created: '2026-01-01T12:00:00.000Z',
    updated: '2026-01-02T12:00:00.000Z',
  };

  it('keeps the editable fields only, and an edit of the copy leaves the saved one alone', () => {
    const draft = draftOf(saved);
    expect(draft).toEqual(valid());
    draft.instructionsObject.personality_types.push('Formal');
    expect(saved.instructionsObject.personality_types).toEqual(['Amigável']);
  });

  it('differs from the saved one when a field changes; a flow left behind a human target does not count', () => {
    const base = fingerprint(draftOf(saved));
    expect(fingerprint({ ...valid(), name: 'Outro' })).not.toBe(base);
    expect(fingerprint({ ...valid(), flow: 'F'.repeat(28) })).toBe(base);
    expect(fingerprint({ ...valid(), redirect: 'flow_chatbot', flow: 'F'.repeat(28) })).not.toBe(base);
  });
});

describe('personalities', () => {
  it('a chip toggles on and off', () => {
    expect(togglePersonality(['Amigável'], 'Formal')).toEqual({
      selected: ['Amigável', 'Formal'],
      warning: null,
    });
    expect(togglePersonality(['Amigável', 'Formal'], 'Amigável')).toEqual({
      selected: ['Formal'],
      warning: null,
    });
  });

  it('a fourth is refused with "Máximo de características de personalidade atingido."', () => {
    const three = ['Amigável', 'Formal', 'Vendedor'];
    expect(togglePersonality(three, 'Educado')).toEqual({
      selected: three,
      warning: 'Máximo de características de personalidade atingido.',
    });
    // Taking one off is still allowed.
    expect(togglePersonality(three, 'Formal').warning).toBeNull();
  });
});

describe('the fields’ messages', () => {
  it('a valid draft has none', () => {
    expect(problemsByField(valid())).toEqual({});
  });

  it('an empty draft names every required field with the spec’s text', () => {
    const empty = newChatbotDraft();
    empty.instructionsObject.fallback = '';
    expect(problemsByField(empty)).toEqual({
      name: 'Identificador do chatbot necessário',
      persona_name: messages.chatbotPersonaNameRequired,
      persona_gender: messages.chatbotPersonaGenderRequired,
      persona_mission: messages.chatbotMissionRequired,
      personality_types: 'Selecione pelo menos 1 tipo de personalidade',
      fallback: messages.chatbotFallbackRequired,
      context: messages.chatbotContextRequired,
    });
  });

  it('a flow target needs its flow', () => {
    expect(problemsByField({ ...valid(), redirect: 'flow_chatbot' })).toEqual({
      flow: messages.chatbotFlowRequired,
    });
    expect(problemsByField({ ...valid(), redirect: 'flow_chatbot', flow: 'F'.repeat(28) })).toEqual({});
  });

  it('a server refusal lands on the form’s field it names, else under the form', () => {
    expect(refusalField('name')).toBe('name');
    expect(refusalField('instructionsObject.context')).toBe('context');
    expect(refusalField('personality_types')).toBe('personality_types');
    expect(refusalField('temperature')).toBeNull();
    expect(refusalField(undefined)).toBeNull();
  });

  it('the context’s count and warning levels (above 25.000 yellow, 50.000 and more red)', () => {
    expect(characterCount(25_001)).toBe('25.001 caracteres');
    expect(contextWarning('x'.repeat(25_000))).toBeNull();
    expect(contextWarning('x'.repeat(25_001))?.level).toBe('warning');
    expect(contextWarning('x'.repeat(50_000))?.level).toBe('error');
  });
});

describe('the test chat', () => {
  it('sends both sides’ lines, the marks left out, the latest 100 at most', () => {
    const entries: TestEntry[] = [
      { kind: 'customer', text: 'Oi' },
      { kind: 'chatbot', text: 'Olá! Como posso ajudar?' },
      { kind: 'transfer', to: 'human', reason: 'pediu um atendente' },
      { kind: 'customer', text: 'Ainda está aí?' },
    ];
    expect(testLinesOf(entries)).toEqual([
      { from: 'customer', text: 'Oi' },
      { from: 'chatbot', text: 'Olá! Como posso ajudar?' },
      { from: 'customer', text: 'Ainda está aí?' },
    ]);
    const many: TestEntry[] = Array.from({ length: 150 }, (_, i) => ({ kind: 'customer', text: `${i}` }));
    const lines = testLinesOf(many);
    expect(lines).toHaveLength(MAX_TEST_LINES);
    expect(lines[0]?.text).toBe('50');
  });

  it('a turn adds its answer', () => {
    expect(entriesOfTurn({ answer: 'Abrimos às 9h.', transfer: null })).toEqual([
      { kind: 'chatbot', text: 'Abrimos às 9h.' },
    ]);
    expect(entriesOfTurn({ answer: '  ', transfer: null })).toEqual([]);
  });

  it('a hand-over adds the transfer message the customer gets, then its mark with the reason', () => {
    expect(
      entriesOfTurn({
        answer: null,
        transfer: {
          to: 'human',
          reason: 'o cliente pediu um atendente',
          message: 'Vou chamar um atendente.',
        },
      }),
    ).toEqual([
      { kind: 'chatbot', text: 'Vou chamar um atendente.' },
      { kind: 'transfer', to: 'human', reason: 'o cliente pediu um atendente' },
    ]);
    // The same text as the answer is shown once.
    expect(
      entriesOfTurn({
        answer: 'Um momento.',
        transfer: { to: 'flow_chatbot', reason: '', message: 'Um momento.' },
      }),
    ).toEqual([
      { kind: 'chatbot', text: 'Um momento.' },
      { kind: 'transfer', to: 'flow_chatbot', reason: '' },
    ]);
    expect(transferTitle('human')).toBe('Transferido para atendimento humano');
    expect(transferTitle('flow_chatbot')).toBe(chatbotLabels.transferredToFlow);
  });
});

describe('pickers and models', () => {
  it('the chatbots as options, by name as Brazilians sort', () => {
    expect(
      chatbotOptions([
        { _id: 'b', name: 'Vendas' },
        { _id: 'a', name: 'agendamento' },
        { _id: 'c', name: 'Ábaco' },
      ]),
    ).toEqual([
      { value: 'c', label: 'Ábaco' },
      { value: 'a', label: 'agendamento' },
      { value: 'b', label: 'Vendas' },
    ]);
    expect(chatbotOptions(undefined)).toEqual([]);
  });

  it('a model’s first empty required field: "É necessário preencher o campo: {description}"', () => {
    const store = CHATBOT_MODELS[0];
    if (!store) throw new Error('no model');
    expect(draftFromModel(store, {}, 'Loja')).toEqual({
      error: { field: 'empresa', message: 'É necessário preencher o campo: Nome da loja' },
    });
    const filled = draftFromModel(store, { empresa: 'Loja Demo', produtos: 'Camiseta: R$ 49,90' }, '');
    if (!('draft' in filled)) throw new Error('expected a draft');
    expect(filled.draft.name).toBe(store.name);
    expect(filled.draft.instructionsObject.context).toContain('A loja se chama Loja Demo.');
    // The model fills everything the form requires except the persona, which the editor asks next.
    expect(Object.keys(problemsByField(filled.draft)).sort()).toEqual(['persona_gender', 'persona_name']);
  });
});
