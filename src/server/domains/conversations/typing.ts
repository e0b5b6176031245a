// 'digitando…' on the customer's phone while a chatbot or a flow prepares its answer (issue 17 §2): the
// chip's adapter shows it where the provider can (the simulator; the Cloud API's typing indicator, which
// also marks the customer's last message read). Best effort: a failure never holds back the answer.
import type { Services } from '../../services';
import { messagesRepo } from './messages.repo';

export async function showTyping(services: Services, conversationId: string, seconds: number) {
  if (seconds <= 0) return;
  const { db, channels, log } = services;
  try {
    const row = await messagesRepo.typingTarget(db, conversationId);
    if (!row || row.chip.filed || row.chip.status !== 'open') return;
    const adapter = channels.adapter(row.chip);
    if (!adapter.typing) return;
    const last = await messagesRepo.lastCustomerPlatformId(db, conversationId);
    // The same address the send path uses.
    const to = row.channelContactId && row.chip.provider !== 'simulator' ? row.channelContactId : row.phone;
    await adapter.typing(row.chip, to, seconds, last);
  } catch (err) {
    log.warn({ err }, 'typing indicator failed');
  }
}
