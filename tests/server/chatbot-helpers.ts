// Helpers for the AI chatbots' tests: a draft the rules accept, what the chatbot sent, and waiting for the
// engine to settle.
import { and, asc, eq, sql } from 'drizzle-orm';
import { chatbotRuns, flowRuns, messages } from '@/server/db/schema';
import type { Services } from '@/server/services';
import type { ChatbotDraft } from '@/shared/contract/chatbots';
import { newChatbotDraft } from '@/shared/rules/chatbot';
import { until } from './channel-helpers';

/** A draft the shared rules accept; `over` replaces fields, and its instructionsObject's fields one by one. */
export const validDraft = (
  over: Partial<Omit<ChatbotDraft, 'instructionsObject'>> & {
    instructionsObject?: Partial<ChatbotDraft['instructionsObject']>;
  } = {},
): ChatbotDraft => {
  const base = newChatbotDraft();
  return {
    ...base,
    name: 'Atendente virtual',
    ...over,
    instructionsObject: {
      ...base.instructionsObject,
      persona_name: 'Ana',
      persona_gender: 'feminina',
      persona_mission: 'Atender os clientes da Loja Demo',
      personality_types: ['Amigável'],
      context: 'A Loja Demo vende camisetas a R$ 49,90.',
      ...over.instructionsObject,
    },
  };
};

/** What the chatbot sent to the customer in the conversation (not its system notes), in order. */
export async function chatbotReplies(services: Pick<Services, 'db'>, conversationId: string) {
  return services.db
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.conversationId, conversationId),
        eq(messages.origin, 'chatbot'),
        sql`${messages.type} <> 'system'`,
      ),
    )
    .orderBy(asc(messages.createdAt), asc(messages.id));
}

/** The conversation's system notes, in order. */
export async function systemNotes(services: Pick<Services, 'db'>, conversationId: string) {
  const rows = await services.db
    .select({ message: messages.message })
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), eq(messages.type, 'system')))
    .orderBy(asc(messages.createdAt), asc(messages.id));
  return rows.map((r) => r.message);
}

/** Waits until the chatbot has sent `n` messages, answers them. */
export function waitReplies(services: Pick<Services, 'db'>, conversationId: string, n: number, ms = 10_000) {
  return until(async () => {
    const rows = await chatbotReplies(services, conversationId);
    return rows.length >= n ? rows : undefined;
  }, ms);
}

/** Waits until no chatbot answer is due or running, and no flow run either (the next test's reset). */
export async function chatbotsSettled(services: Pick<Services, 'db'>, ms = 20_000) {
  await until(async () => {
    const jobs = await services.db.execute(
      sql`select count(*)::int as n from pgboss.job where name in ('chatbot-reply', 'flow-run') and (state = 'active' or (state in ('created', 'retry') and start_after <= now()))`,
    );
    const leases = await services.db.execute(
      sql`select (select count(*) from ${chatbotRuns} where lease_until is not null)::int + (select count(*) from ${flowRuns} where lease_until is not null)::int as n`,
    );
    const row = (jobs as unknown as { rows: { n: number }[] }).rows[0];
    const lease = (leases as unknown as { rows: { n: number }[] }).rows[0];
    return (row?.n ?? 0) === 0 && (lease?.n ?? 0) === 0 ? true : undefined;
  }, ms);
}

/** Where the conversation's chatbot stands (chatbot_runs.position), or null before its first run. */
export async function chatbotPosition(services: Pick<Services, 'db'>, conversationId: string) {
  const [row] = await services.db
    .select({ position: chatbotRuns.position })
    .from(chatbotRuns)
    .where(eq(chatbotRuns.conversationId, conversationId));
  return row?.position ?? null;
}
