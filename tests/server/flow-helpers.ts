// Helpers for the flow engine's tests: flows written straight into the flows table (the flows CRUD has its
// own tests), a simulator chip whose first service is a flow, and reading what the flow sent.
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { chips, contacts, conversations, flowRuns, flows, messages, tags } from '@/server/db/schema';
import type { Services } from '@/server/services';
import type { FlowNodeType } from '@/shared/contract/flows';
import { newId } from '@/shared/ids';
import { until } from './channel-helpers';

export interface TestNode {
  id: string;
  type: FlowNodeType;
  data?: Record<string, unknown>;
}

/** A flow of `nodes` chained by `edges` ([source, target] or [source, handle, target]). */
export async function insertFlow(
  services: Pick<Services, 'db'>,
  accountId: string,
  nodes: TestNode[],
  edges: ([string, string] | [string, string, string])[],
  trigger: Partial<{
    trigger: boolean;
    keywords: string[];
    triggerHuman: boolean;
    disabledChips: string[];
  }> = {},
) {
  const id = newId();
  await services.db.insert(flows).values({
    id,
    accountId,
    name: `Fluxo ${id.slice(-4)}`,
    nodes: nodes.map((n, i) => ({
      id: n.id,
      type: n.type,
      position: { x: 0, y: i * 100 },
      data: n.data ?? {},
    })) as never,
    connections: edges.map((e, i) => ({
      id: `e${i}`,
      source: e[0],
      sourceHandle: e.length === 3 ? e[1] : null,
      target: e.length === 3 ? e[2] : e[1],
    })),
    ...trigger,
  });
  return id;
}

export async function insertTag(services: Pick<Services, 'db'>, accountId: string, name: string) {
  const id = newId();
  await services.db.insert(tags).values({ id, accountId, name, color: '#ff0000' });
  return id;
}

/** The chip's first service becomes the flow (the chips dialog's wiring is another part's). */
export async function setChipFlow(services: Pick<Services, 'db'>, chipId: string, flowId: string) {
  await services.db.update(chips).set({ redirect: 'flow_chatbot', flowId }).where(eq(chips.id, chipId));
}

/** The open conversation of the contact with that phone (digits, as stored), once it exists. */
export function openConversationOf(services: Pick<Services, 'db'>, phone: string) {
  return until(async () => {
    const [row] = await services.db
      .select({ conversation: conversations })
      .from(conversations)
      .innerJoin(contacts, eq(contacts.id, conversations.contactId))
      .where(and(eq(contacts.phone, phone), isNull(conversations.finishedAt)));
    return row?.conversation;
  });
}

/** What the flow sent in the conversation, in order. */
export async function botMessages(services: Pick<Services, 'db'>, conversationId: string) {
  return services.db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), eq(messages.origin, 'chatbot')))
    .orderBy(asc(messages.createdAt), asc(messages.id));
}

/** Waits until the flow has sent `n` messages (and at most a moment more), answers them. */
export async function waitBot(
  services: Pick<Services, 'db'>,
  conversationId: string,
  n: number,
  ms = 10_000,
) {
  return until(async () => {
    const rows = await botMessages(services, conversationId);
    return rows.length >= n ? rows : undefined;
  }, ms);
}

export async function conversationRow(services: Pick<Services, 'db'>, id: string) {
  const [row] = await services.db.select().from(conversations).where(eq(conversations.id, id));
  if (!row) throw new Error('no conversation');
  return row;
}

/** The flow engine's row for the conversation (flow_runs): its position and claim, or nulls before any run. */
export async function flowRun(services: Pick<Services, 'db'>, id: string) {
  const [row] = await services.db.select().from(flowRuns).where(eq(flowRuns.conversationId, id));
  return { position: row?.position ?? null, leaseUntil: row?.leaseUntil ?? null };
}

/**
 * Waits until no flow run is due or running (a test's flows have settled): the next test's reset empties
 * every table, which must not meet a run in the middle of a step (PostgreSQL would find a deadlock).
 */
export async function flowsSettled(services: Pick<Services, 'db'>, ms = 15_000) {
  await until(async () => {
    const jobs = await services.db.execute(
      sql`select count(*)::int as n from pgboss.job where name = 'flow-run' and (state = 'active' or (state in ('created', 'retry') and start_after <= now()))`,
    );
    const [lease] = await services.db
      .select({ n: sql<number>`count(*)::int` })
      .from(flowRuns)
      .where(sql`${flowRuns.leaseUntil} is not null`);
    const row = (jobs as unknown as { rows: { n: number }[] }).rows[0];
    return (row?.n ?? 0) === 0 && (lease?.n ?? 0) === 0 ? true : undefined;
  }, ms);
}
