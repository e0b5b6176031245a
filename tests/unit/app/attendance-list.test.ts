import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { replyWindowLeft } from '@/app/features/attendance/contact-view';
import {
  type ConversationPage,
  conversationListQuery,
  conversationQuery,
  placeConversation,
  placeInPages,
} from '@/app/features/attendance/data/conversations';
import {
  type ConversationFilter,
  defaultFilter,
  filterIsActive,
  formatListTime,
  lastMessageFailed,
  matchesFilter,
  previewOf,
  visibleTags,
} from '@/app/features/attendance/list/list-view';
import { displayName } from '@/app/ui/contact-name';
import type { Conversation, Message } from '@/shared/contract/conversations';
import { messages } from '@/shared/messages';
import { messageFixture } from './message-fixture';

const message = messageFixture;

const conversation = (id: string, at: string, over: Partial<Conversation> = {}): Conversation => ({
  _id: id,
  contact: {
    _id: `K${id}`,
    name: 'Carla Cliente',
    override_name: null,
    phone: '5511987651234',
    tags: [],
    ignore: false,
    profile_picture: null,
    channel_contact_id: null,
    created: at,
  },
  chip: 'CHIP1',
  chatbot: null,
  chatbot_type: null,
  flow: null,
  department: 'SUP',
  created: at,
  finished: null,
  is_manual: true,
  is_new: true,
  waiting_response: true,
  auto_follow_up: false,
  follow_up_applies: false,
  context_window: null,
  channel_type: null,
  last_message: message({ conversation_id: id, created: at }),
  start_flow: false,
  assigned_user: null,
  assigned_user_name: null,
  ...over,
});

const all: ConversationFilter = defaultFilter({ user_role: 'owner', departments: [] });

describe('a conversation item', () => {
  it('names the contact by override_name, then name, then the formatted phone', () => {
    const c = conversation('A', '2026-03-10T12:00:00Z').contact;
    expect(displayName({ ...c, override_name: 'Carlinha' })).toBe('Carlinha');
    expect(displayName(c)).toBe('Carla Cliente');
    expect(displayName({ ...c, name: '', override_name: ' ' })).toBe('+55 (11) 98765-1234');
  });

  it('cuts the preview at 60 characters (59 plus an ellipsis) and names media', () => {
    const long = 'a'.repeat(80);
    expect(previewOf(message({ message: long }))).toBe(`${'a'.repeat(59)}…`);
    expect(Array.from(previewOf(message({ message: long }))).length).toBe(60);
    expect(previewOf(message({ message: 'b'.repeat(60) }))).toBe('b'.repeat(60));
    expect(previewOf(message({ message: 'linha 1\nlinha 2' }))).toBe('linha 1 linha 2');
    expect(previewOf(message({ type: 'image', message: '' }))).toBe(messages.image);
    expect(previewOf(message({ type: 'image', message: 'Olha isso' }))).toBe('Imagem: Olha isso');
    expect(previewOf(message({ type: 'document', message: '', file_name: 'nota.pdf' }))).toBe(
      'Documento: nota.pdf',
    );
    expect(previewOf(message({ deleted: true }))).toBe(messages.listDeletedMessage);
    expect(previewOf(null)).toBe(messages.listNoMessages);
    // An audio's length, as WhatsApp's list shows it; unknown, the bare label.
    expect(previewOf(message({ type: 'audio', message: '', audio_seconds: 7 }))).toBe('Áudio (0:07)');
    expect(previewOf(message({ type: 'audio', message: '', audio_seconds: 65 }))).toBe('Áudio (1:05)');
    expect(previewOf(message({ type: 'audio', message: '', audio_seconds: 3723 }))).toBe('Áudio (1:02:03)');
    expect(previewOf(message({ type: 'audio', message: '', audio_seconds: null }))).toBe(messages.audio);
  });

  it('marks a team message that was not sent (spec 2 §4), and only that', () => {
    const at = '2026-05-01T12:00:00.000Z';
    const with_ = (over: Partial<Message>) =>
      conversation('C1', at, { last_message: message({ conversation_id: 'C1', created: at, ...over }) });
    expect(lastMessageFailed(with_({ origin: 'user', status: -1, failure: 'Chip desconectado' }))).toBe(true);
    expect(lastMessageFailed(with_({ origin: 'user', status: 0 }))).toBe(false);
    expect(lastMessageFailed(with_({ origin: 'user', status: 1 }))).toBe(false);
    expect(lastMessageFailed(with_({ origin: 'customer', status: 1 }))).toBe(false);
    expect(lastMessageFailed(conversation('C2', at, { last_message: null }))).toBe(false);
  });

  it('shows HH:mm for today and dd/MM HH:mm for other days', () => {
    const now = new Date(2026, 2, 10, 18, 0);
    expect(formatListTime(new Date(2026, 2, 10, 9, 5).toISOString(), now)).toBe('09:05');
    expect(formatListTime(new Date(2026, 2, 9, 23, 59).toISOString(), now)).toBe('09/03 23:59');
    expect(formatListTime('not a date', now)).toBe('');
  });

  it('shows 3 tags, then +N', () => {
    expect(visibleTags(['a', 'b'])).toEqual({ shown: ['a', 'b'], more: 0 });
    expect(visibleTags(['a', 'b', 'c'])).toEqual({ shown: ['a', 'b', 'c'], more: 0 });
    expect(visibleTags(['a', 'b', 'c', 'd', 'e'])).toEqual({ shown: ['a', 'b', 'c'], more: 2 });
  });

  it('counts the reply window down in hours and minutes, and is off once it closes', () => {
    const now = Date.parse('2026-03-10T12:00:00Z');
    expect(replyWindowLeft('2026-03-11T12:00:00Z', now)).toBe('24h 00min');
    expect(replyWindowLeft('2026-03-11T11:55:00Z', now)).toBe('23h 55min');
    expect(replyWindowLeft('2026-03-10T12:09:00Z', now)).toBe('0h 09min');
    // 30 s left still shows a minute; the next 60 s refresh turns it off.
    expect(replyWindowLeft('2026-03-10T12:00:30Z', now)).toBe('0h 01min');
    expect(replyWindowLeft('2026-03-10T12:00:00Z', now)).toBeNull();
    expect(replyWindowLeft('2026-03-10T11:00:00Z', now)).toBeNull();
    expect(replyWindowLeft('garbage', now)).toBeNull();
  });
});

describe('the filter', () => {
  it("starts from the attendant's own departments; others start from all", () => {
    expect(defaultFilter({ user_role: 'user', departments: ['SUP'] }).departments).toEqual(['SUP']);
    expect(defaultFilter({ user_role: 'manager', departments: ['SUP'] }).departments).toEqual([]);
  });

  it("is active ('Existem filtros ativos') only when it differs from the default", () => {
    const base = defaultFilter({ user_role: 'user', departments: ['A', 'B'] });
    expect(filterIsActive(base, base)).toBe(false);
    expect(filterIsActive({ ...base, departments: ['B', 'A'], text: '  ' }, base)).toBe(false);
    expect(filterIsActive({ ...base, types: [] }, base)).toBe(false);
    expect(filterIsActive({ ...base, types: ['human'] }, base)).toBe(true);
    expect(filterIsActive({ ...base, departments: ['A'] }, base)).toBe(true);
    expect(filterIsActive({ ...base, situation: 'waiting_response' }, base)).toBe(true);
    expect(filterIsActive({ ...base, text: 'ana' }, base)).toBe(true);
  });

  it('matches a conversation as the server does', () => {
    const c = conversation('A', '2026-03-10T12:00:00Z', {
      contact: { ...conversation('A', '2026-03-10T12:00:00Z').contact, tags: ['T1'] },
    });
    expect(matchesFilter(c, all)).toBe(true);
    expect(matchesFilter({ ...c, finished: '2026-03-10T13:00:00Z' }, all)).toBe(false);
    expect(matchesFilter({ ...c, waiting_response: false }, { ...all, situation: 'waiting_response' })).toBe(
      false,
    );
    expect(matchesFilter(c, { ...all, types: ['chatbot'] })).toBe(false);
    expect(matchesFilter(c, { ...all, types: ['human'] })).toBe(true);
    expect(matchesFilter(c, { ...all, departments: ['VEN'] })).toBe(false);
    expect(matchesFilter(c, { ...all, chips: ['CHIP2'] })).toBe(false);
    expect(matchesFilter(c, { ...all, tags: ['T2', 'T1'] })).toBe(true);
    expect(matchesFilter(c, { ...all, tags: ['T2'] })).toBe(false);
    expect(matchesFilter(c, { ...all, text: 'carla' })).toBe(true);
    expect(matchesFilter(c, { ...all, text: '98765' })).toBe(true);
    expect(matchesFilter(c, { ...all, text: 'Bruno' })).toBe(false);
  });
});

describe('the list in the cache', () => {
  const page = (conversations: Conversation[], load_more = false): ConversationPage => ({
    conversations,
    load_more,
  });
  const data = (...pages: ConversationPage[]) => ({ pages, pageParams: pages.map(() => undefined) });
  const ids = (d: { pages: ConversationPage[] }) => d.pages.map((p) => p.conversations.map((c) => c._id));

  it('moves a conversation with a new message to the top, and places others by their activity', () => {
    const a = conversation('A', '2026-03-10T12:00:00Z');
    const b = conversation('B', '2026-03-10T11:00:00Z');
    const c = conversation('C', '2026-03-10T10:00:00Z');
    const d = data(page([a, b], true), page([c]));
    const later = { ...c, last_message: message({ _id: 'M9', created: '2026-03-10T13:00:00Z' }) };
    expect(ids(placeInPages(d, later))).toEqual([['C', 'A', 'B'], []]);
    const between = conversation('N', '2026-03-10T11:30:00Z');
    expect(ids(placeInPages(d, between))).toEqual([['A', 'N', 'B'], ['C']]);
    // Older than everything loaded while there is more to load: it comes with 'Carregar mais'.
    const old = conversation('O', '2026-03-01T00:00:00Z');
    expect(ids(placeInPages(data(page([a, b], true)), old))).toEqual([['A', 'B']]);
    expect(ids(placeInPages(d, old))).toEqual([
      ['A', 'B'],
      ['C', 'O'],
    ]);
  });

  it('drops a conversation from the lists whose filter it leaves, and keeps its own entry', () => {
    const client = new QueryClient();
    const human = { ...all, types: ['human'] } as ConversationFilter;
    const a = conversation('A', '2026-03-10T12:00:00Z');
    client.setQueryData(conversationListQuery(all).queryKey, data(page([a])));
    client.setQueryData(conversationListQuery(human).queryKey, data(page([a])));
    const chatbot = { ...a, is_manual: false };
    placeConversation(client, chatbot, (f) => matchesFilter(chatbot, f));
    expect(ids(client.getQueryData(conversationListQuery(all).queryKey) as never)).toEqual([['A']]);
    expect(ids(client.getQueryData(conversationListQuery(human).queryKey) as never)).toEqual([[]]);
    expect(client.getQueryData(conversationQuery('A').queryKey)?.is_manual).toBe(false);
  });
});
