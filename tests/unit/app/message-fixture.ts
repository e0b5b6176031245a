// A message as the server answers it, for the app's unit tests: a customer's text unless `over` says otherwise.
import type { Message } from '@/shared/contract/conversations';

export const messageFixture = (over: Partial<Message> = {}): Message => ({
  _id: 'M1',
  conversation_id: 'C1',
  message: 'Olá',
  origin: 'customer',
  type: 'text',
  media_url: null,
  file_name: null,
  ptt: false,
  canonical_url: null,
  deleted: false,
  status: 1,
  failure: null,
  created: '2026-03-10T12:00:00.000Z',
  user: null,
  message_id: null,
  platform_message_id: null,
  event: null,
  reply_message: null,
  location: null,
  ...over,
});
