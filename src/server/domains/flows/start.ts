// How a flow run is asked for: the runner's job that runs a conversation's flow (engine.ts does the work), and
// startFlowRun, the one call that makes a conversation flow-served from the beginning of a flow (a transfer, a
// keyword, a scheduled message or a campaign). Kept apart from the engine so that the conversation actions
// can queue a run without importing the engine (which imports them).
import { messages as texts } from '../../../shared/messages';
import { systemActor } from '../../access';
import type { Db } from '../../db';
import { AppError } from '../../http/errors';
import type { Services } from '../../services';
import { announceUpdated } from '../conversations/delivery';
import { flowsRepo } from './flows.repo';

// The change itself lives with the conversation's other writes, in the repository.
export { startingFlow } from './flows.repo';

/** The runner's job: run this conversation's flow until it waits or ends. */
export const FLOW_RUN_JOB = 'flow-run';
export interface FlowRunJob {
  conversation: string;
}

/**
 * Queues a run of the conversation. `key` makes it unique (the customer message's id: a replayed webhook adds
 * nothing; a wait's conversation, run and step); `tx` queues it with the change that asks for it.
 */
export function queueFlowRun(
  services: Pick<Services, 'jobs'>,
  conversationId: string,
  opts: { key?: string; tx?: Db; startAfter?: Date } = {},
) {
  return services.jobs.send<FlowRunJob>(FLOW_RUN_JOB, { conversation: conversationId }, opts);
}

/**
 * Starts `flowId` from its beginning in an open conversation (whatever served it: a person, a chatbot, or
 * another flow's run, which stops). The change and the run's job are one transaction. Scheduled messages and
 * campaigns call it after they open the conversation. Throws 'Fluxo não encontrado.' for a flow that is not
 * the conversation's account's, and 'Conversa finalizada' style errors are the caller's: a finished
 * conversation is refused.
 */
export async function startFlowRun(
  services: Pick<Services, 'db' | 'jobs' | 'realtime'>,
  conversationId: string,
  flowId: string,
  /**
   * Written in the start's transaction: what asked for the start records it there (a scheduled message is
   * marked sent with it), so a retry after a crash finds it done and never starts the flow twice.
   */
  alsoWrite?: (tx: Db) => Promise<unknown>,
) {
  const { db } = services;
  const conversation = await flowsRepo.conversationToStart(db, conversationId);
  if (!conversation) throw new AppError(texts.notFound);
  if (conversation.finishedAt) throw new AppError(texts.conversationFinishedHint);
  const actor = systemActor(conversation.accountId, 'flows');
  if (!(await flowsRepo.find(db, actor, flowId))) throw new AppError(texts.flowNotFound);
  const started = await db.transaction(async (tx) => {
    if (!(await flowsRepo.startOn(tx as Db, actor, conversationId, flowId))) return false;
    await queueFlowRun(services, conversationId, { tx: tx as Db });
    await alsoWrite?.(tx as Db);
    return true;
  });
  if (!started) throw new AppError(texts.conversationFinishedHint);
  services.jobs.wake(FLOW_RUN_JOB);
  await announceUpdated(services as Services, conversation.accountId, conversationId);
}
