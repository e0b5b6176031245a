// 'digitando…' on the customer's phone while a chatbot or a flow prepares its answer (issue 17 §2): the
// chip's adapter shows it where the provider can (the simulator; the Cloud API's typing indicator, which
// also marks the customer's last message read). Best effort: a failure never holds back the answer.
import { and, desc, eq } from 'drizzle-orm';
import { chips, contacts, conversations, messages } from '../../db/schema';
import type { Services } from '../../services';

export async function showTyping(services: Services, conversationId: string, seconds: number) {
  if (seconds <= 0) return;
  const { db, channels, log } = services;
  try {
    const [row] = await db
      .select({ chip: chips, phone: contacts.phone, channelContactId: contacts.channelContactId })
      .from(conversations)
      .innerJoin(chips, eq(chips.id, conversations.chipId))
      .innerJoin(contacts, eq(contacts.id, conversations.contactId))
      .where(eq(conversations.id, conversationId));
    if (!row || row.chip.filed || row.chip.status !== 'open') return;
    const adapter = channels.adapter(row.chip);
    if (!adapter.typing) return;
    const [last] = await db
      .select({ id: messages.platformMessageId })
      .from(messages)
      .where(and(eq(messages.conversationId, conversationId), eq(messages.origin, 'customer')))
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(1);
    // The same address the send path uses.
    const to = row.channelContactId && row.chip.provider !== 'simulator' ? row.channelContactId : row.phone;
    await adapter.typing(row.chip, to, seconds, last?.id ?? null);
  } catch (err) {
    log.warn({ err }, 'typing indicator failed');
  }
}
