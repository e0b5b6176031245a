// The one engine skeleton (issue 36 item 4): flows, AI chatbots and follow-ups run a conversation the same way,
// and each engine is only its steps.
//
// - Claim: one runner at a time per conversation and engine, across processes. The engine's row in its own
//   table (flow_runs, chatbot_runs, follow_up_runs) is claimed by an UPDATE that takes it only when free or run
//   out (and while the engine serves the conversation); the claim's value (to the millisecond) names the holder
//   in its later writes. A process killed while holding one leaves it to run out.
// - Step: the engine's `step` reads the conversation and its position as this claim holds them, does one thing
//   (sends through the attendants' idempotent send path, calls a provider) and persists.
// - Persist: the position and its next wake-up in one transaction with whatever else the step changes (the
//   contact, the conversation), renewing the claim, and the wake-up's job queued in it. A lost claim (it ran
//   out, or the engine no longer serves) stops the run without a trace.
// - Release, then look again: work that arrived while the claim was held (its own job found it taken) is run
//   by the same runner, in order.
// - Sweep: conversations with work and nobody on them (a job lost, a process killed between its release and
//   its last look) get a run. Every minute and at each start.
// The statements live in claims.repo.ts.
import type { Db } from '../../db';
import type { Services } from '../../services';
import {
  type Condition,
  claimsRepo,
  type EngineName,
  type InputMark,
  RUN_TABLES,
  type RunRow,
} from './claims.repo';
import type { ConversationChange } from './conversations.repo';
import type { ConversationRow } from './messages.repo';

export type { EngineName, InputMark, RunRow };
export { RUN_TABLES };

/** The claim was lost (it ran out, a person took the conversation): the run stops without a trace. */
export class Stopped extends Error {}

/** What a step writes, in one transaction. */
export interface Outcome<P> {
  /** Where the engine stands now (null: nowhere yet, a run that failed before it began). */
  position: P | null;
  /** When it wants to run again (a wait, a retry, a due follow-up); the engine's `wake` queues its job. */
  wakeAt?: Date | null;
  /** The wake-up job's key: one job per wait, however often the step is persisted. */
  wakeKey?: string;
  /** The conversation's change that comes with the step (a redirect, a hand-over). */
  set?: ConversationChange;
  /** Other writes of the same change (contact variables, tags, a system note), first (lock order). */
  also?: (tx: Db) => Promise<unknown>;
}

/** A conversation as this claim holds it. */
export interface Held<P> {
  services: Services;
  conversation: ConversationRow;
  run: RunRow<P>;
  holder: { lease: Date };
  /**
   * Writes the step's outcome and renews the claim, in one transaction; answers the conversation as `set`
   * left it (or as read, without `set`). Throws Stopped when the claim was lost.
   */
  persist(outcome: Outcome<P>): Promise<ConversationRow>;
}

export interface EngineSpec<P, I> {
  name: EngineName;
  /** How long a claim holds a conversation: longer than the slowest step. */
  leaseSeconds(services: Services): number;
  /** The engine serves the conversation (a condition on conversations): claims and writes hold only then. */
  serves?: Condition;
  /** Claims one run takes at most (each after work arrived during the last). */
  maxRounds: number;
  /**
   * One step with the claim held: what it does, persisting through `held.persist`. Answers whether there is
   * more to do at once. `input`: what the run was asked with (a job's trigger, the follow-up clock).
   */
  step(held: Held<P>, input: I, steps: number): Promise<boolean>;
  /** After a release: whether the conversation has work now (it arrived while the claim was held). */
  hasWork(services: Services, conversationId: string, input: I): Promise<boolean>;
  /** An error in a step (not a lost claim): the engine's own way out. Without it the error is thrown. */
  failed?(held: Held<P>, err: unknown): Promise<void>;
  /** Queues the engine's job for `at` (in the step's transaction when `tx`): a wait, a retry, a due time. */
  wake?(
    services: Services,
    conversationId: string,
    at: Date,
    key: string | undefined,
    tx: Db,
  ): Promise<unknown>;
  /** Conversations with work and nobody on them, for the sweep (every account). */
  unattended?(services: Services, limit: number): Promise<string[]>;
  /** The job that runs one conversation, `{ conversation }`: what the sweep queues. */
  job?: string;
}

export interface Engine<P, I> {
  spec: EngineSpec<P, I>;
  /**
   * Runs the conversation until it waits or ends, when no one else is running it: safe to call any number of
   * times, from any process.
   */
  run(services: Services, conversationId: string, input: I): Promise<void>;
  /** Queues a run for every conversation with work and nobody on it; answers how many. */
  sweep(services: Services, limit?: number): Promise<number>;
}

export function defineEngine<P, I = undefined>(spec: EngineSpec<P, I>): Engine<P, I> {
  const seconds = (services: Services) => spec.leaseSeconds(services);

  const hold = (
    services: Services,
    conversationId: string,
    holder: { lease: Date },
    read: { conversation: ConversationRow; run: RunRow<P> },
  ): Held<P> => {
    const held: Held<P> = {
      services,
      conversation: read.conversation,
      run: read.run,
      holder,
      async persist(outcome) {
        let conversation = held.conversation;
        const lease = await services.db.transaction(async (tx) => {
          if (outcome.also) await outcome.also(tx as Db);
          if (outcome.set) {
            const row = await claimsRepo.change(
              tx as Db,
              spec.name,
              conversationId,
              holder.lease,
              outcome.set,
              spec.serves,
            );
            if (!row) throw new Stopped();
            conversation = row;
          }
          const wakeAt = outcome.wakeAt ?? null;
          const renewed = await claimsRepo.advance(
            tx as Db,
            spec.name,
            conversationId,
            holder.lease,
            { position: outcome.position, wakeAt },
            seconds(services),
            // A change (a redirect, a hand-over) is the engine's last write while it serves.
            outcome.set ? undefined : spec.serves,
          );
          if (!renewed) throw new Stopped();
          if (wakeAt && spec.wake)
            await spec.wake(services, conversationId, wakeAt, outcome.wakeKey, tx as Db);
          return renewed;
        });
        holder.lease = lease;
        held.run = { position: outcome.position, leaseUntil: lease, wakeAt: outcome.wakeAt ?? null };
        held.conversation = conversation;
        return conversation;
      },
    };
    return held;
  };

  async function runClaimed(services: Services, conversationId: string, holder: { lease: Date }, input: I) {
    for (let steps = 0; ; steps++) {
      const read = await claimsRepo.held<P>(services.db, spec.name, conversationId, holder.lease);
      if (!read) return;
      const held = hold(services, conversationId, holder, read);
      try {
        if (!(await spec.step(held, input, steps))) return;
      } catch (err) {
        if (err instanceof Stopped) return;
        if (!spec.failed) throw err;
        await spec.failed(held, err).catch((failure: unknown) => {
          if (!(failure instanceof Stopped)) throw failure;
        });
        return;
      }
    }
  }

  return {
    spec,
    async run(services, conversationId, input) {
      for (let round = 0; round < spec.maxRounds; round++) {
        const lease = await claimsRepo.claim(
          services.db,
          spec.name,
          conversationId,
          seconds(services),
          spec.serves,
        );
        if (!lease) return;
        const holder = { lease };
        try {
          await runClaimed(services, conversationId, holder, input);
        } finally {
          await claimsRepo.release(services.db, spec.name, conversationId, holder.lease);
        }
        if (!(await spec.hasWork(services, conversationId, input))) return;
      }
    },
    async sweep(services, limit = 500) {
      if (!spec.unattended || !spec.job) return 0;
      const ids = await spec.unattended(services, limit);
      await services.jobs.sendMany(
        spec.job,
        ids.map((id) => ({ data: { conversation: id } })),
      );
      return ids.length;
    },
  };
}

/** Forgets where the engine stood on these conversations (a new assignment starts afresh), in `tx`. */
export const resetRuns = (tx: Db, engine: EngineName, conversationIds: readonly string[]) =>
  claimsRepo.reset(tx, engine, conversationIds);

/** The conversation's customer messages after `after` (all of them when null): an engine's unread input. */
export const customerInputAfter = claimsRepo.customerInputAfter;
