// The automatic follow-up engine (spec 3 §2.12, §3 Auto follow-up per chip, §9; issue 20).
//
// WHY a sweep over the conversations, not one pg-boss job per follow-up: when a follow-up falls due depends on
// things that change after the business's message (the chip's setting, the hours window, the customer's
// reply, 'Desativar follow-up automático', a finish), and pg-boss's startAfter reads the database's clock,
// which tests cannot move. The state:
// - conversations.follow_up_anchor: when the business's last message, still unanswered, was stored, written
//   with the message (append.repo.ts): a team message (an attendant, a chatbot, a flow) sets it, the
//   customer's clears it (the follow-up stops at the reply), a follow-up leaves it alone.
// - the engine's follow_up_runs row (the skeleton's, conversations/claim.ts): position { anchor, step, last_at }
//   (the last follow-up sent for that anchor, 0 to 3, and when), wake_at (when the next one is due, cached:
//   null to be worked out, NEVER none left; saving a setting clears the chip's) and the claim. A row of
//   another anchor (or none) is step 0 with nothing cached: a new team message starts the count afresh
//   without touching this table.
// runDueFollowUps(services, now) works out due times and sends what is due at `now`, which defaults to
// services.clock (tests move it). It runs from a sweep every minute and at start, and from a wake-up job
// queued for the exact due time (and at once after a team message), so a follow-up goes out on time.
//
// Timing (shared/rules/follow-up.ts nextFollowUp): message 1 is due its time after the anchor, message 2 its
// time after message 1 was SENT, message 3 after message 2. A disabled message is skipped: the next enabled
// one is timed from the last one sent (or the anchor). A due time outside the chip's hours window (in the
// account's time zone; start > end spans midnight; start == end is the whole day) waits for its next opening.
// A follow-up is sent only while the conversation is open, its auto_follow_up is on, the chip's setting is
// enabled and serves the conversation's type (followUpApplies), and the customer has not replied.
//
// Exactly once: a follow-up due at `now` is run by the skeleton, which claims the conversation's run (one
// runner across processes, on the database's clock) and works the plan out again from the conversation and
// position as the claim holds them; the message goes through the attendants' send path with the message_id
// `fu-<conversation>-<anchor ms>-<step>` (one message per id, however often retried), and the step is then
// recorded. A process killed between the send and the record leaves its claim to run out; the next claim
// sends the same message_id again, finds it stored and only records the step: never a second message. A
// follow-up not due yet only gets its due time cached, with no claim (see handle).
//
// The follow-up is the system's message (origin 'chatbot', no attendant, no signature): the conversation
// shows it as the bot's, like a flow's or an AI chatbot's answer.
import {
  type FollowUpMessage,
  followUpApplies,
  MAX_FOLLOW_UP_MESSAGES,
  nextFollowUp,
} from '../../shared/rules/follow-up';
import { systemActor } from '../access';
import { defineEngine } from '../domains/conversations/claim';
import { followUpSender, sendConversationMessage } from '../domains/conversations/conversations.service';
import {
  type FollowUpCandidate,
  type FollowUpPosition,
  type FollowUpSetting,
  followUpServes,
  followUpRunsRepo as runs,
} from '../domains/follow-ups/follow-up-runs.repo';
import { FOLLOW_UP_WAKE_JOB, wakeAt } from '../domains/follow-ups/wake';
import { AppError } from '../http/errors';
import type { Services } from '../services';
import type { JobKind } from './runner';

export interface FollowUpOptions {
  /** Conversations looked at per round. */
  batch?: number;
}

const DEFAULTS = { batch: 100 } satisfies FollowUpOptions;

/** How long a claim holds a conversation (longer than a send): after it, another claim may take it again. */
const LEASE_SECONDS = 90;

/** The cached due time of a conversation with no follow-up left for its anchor (until a new anchor or a save). */
export const NEVER = new Date('9999-12-31T00:00:00Z');

/** The message_id the send path dedupes on: one message per conversation, anchor and step. */
export const followUpMessageId = (conversationId: string, anchor: Date, step: number) =>
  `fu-${conversationId}-${anchor.getTime()}-${step}`;

const nowOf = (services: Services) => services.clock?.now() ?? new Date();
const minuteMs = (services: Services) => services.config.FOLLOW_UP_MINUTE_SECONDS * 1000;

/** What a run is asked with: the clock, the chip's setting and zone as the sweep read them, a tally of sends. */
interface Tick {
  now: Date;
  setting: FollowUpSetting;
  timeZone: string;
  sent: { count: number };
}

/**
 * Where the follow-up of the conversation's current anchor stands and what comes next (`next` null: none
 * left); null when no follow-up applies. A position of another anchor (a team message since) counts for
 * nothing: step 0 for this one.
 */
function planOf(services: Services, c: Reading, stood: FollowUpPosition | null, tick: Tick) {
  const anchor = c.followUpAnchor;
  if (!anchor) return null;
  const view = {
    finished: c.finishedAt?.toISOString() ?? null,
    is_manual: c.isManual,
    chatbot_type: c.chatbotType,
  };
  const { setting } = tick;
  if (!followUpApplies(view, setting)) return null;
  const same = stood !== null && new Date(stood.anchor).getTime() === anchor.getTime();
  const position: FollowUpPosition = same ? stood : { anchor: anchor.toISOString(), step: 0, last_at: null };
  const next = nextFollowUp(
    { start_time: setting.startTime, end_time: setting.endTime, messages: setting.messages },
    { anchor, step: position.step, lastAt: position.last_at ? new Date(position.last_at) : null },
    tick.timeZone,
    minuteMs(services),
  );
  return { anchor, same, position, next };
}
type Reading = FollowUpCandidate['conversation'];
const isDue = (p: ReturnType<typeof planOf>, now: Date) => Boolean(p?.next && p.next.dueAt <= now);

const followUpEngine = defineEngine<FollowUpPosition, Tick>({
  name: 'follow-ups',
  leaseSeconds: () => LEASE_SECONDS,
  serves: followUpServes,
  maxRounds: 3,
  /**
   * With the claim: works out the follow-up again from the run as held; sends it when due at `now` and records
   * it, then (the next step) caches when the one after is due.
   */
  async step(held, tick, steps) {
    const p = planOf(held.services, held.conversation, held.run.position, tick);
    if (!p || steps > MAX_FOLLOW_UP_MESSAGES) return false;
    const { next } = p;
    if (!next || next.dueAt > tick.now) {
      const due = next?.dueAt ?? NEVER;
      if (!p.same || held.run.wakeAt?.getTime() !== due.getTime())
        await held.persist({ position: p.position, wakeAt: due });
      if (next) await wakeAt(held.services, next.dueAt);
      return false;
    }
    const c = held.conversation;
    await send(held.services, c.accountId, c.id, p.anchor, next.step, next.message);
    await held.persist({
      position: { anchor: p.position.anchor, step: next.step, last_at: tick.now.toISOString() },
      wakeAt: null,
    });
    tick.sent.count++;
    return true;
  },
  // A follow-up due meanwhile (a team message while the claim was held: a new anchor) is sent by the same
  // runner; one not due is left to handle's cache (the sweep, a wake-up).
  async hasWork(services, conversationId, tick) {
    const r = await runs.candidate(services.db, conversationId, tick.now);
    return Boolean(r && isDue(planOf(services, r.conversation, r.run?.position ?? null, tick), tick.now));
  },
});

/**
 * One candidate: a follow-up due at `now` is run by the engine (claim, send, record); one not due yet only
 * gets its due time cached and a wake-up queued, without a claim, as the old engine did: a claim taken just
 * to cache would keep a run with a later `now` (the sweep, a wake-up, a test's clock) from sending a due one.
 */
async function handle(services: Services, r: FollowUpCandidate, tick: Tick) {
  const p = planOf(services, r.conversation, r.run?.position ?? null, tick);
  if (!p) return;
  if (isDue(p, tick.now)) {
    await followUpEngine.run(services, r.conversation.id, tick);
    return;
  }
  await runs.cacheDue(services.db, r.conversation, r.run, p.position, p.next?.dueAt ?? NEVER);
  if (p.next) await wakeAt(services, p.next.dueAt);
}

async function send(
  services: Services,
  accountId: string,
  conversationId: string,
  anchor: Date,
  step: number,
  message: FollowUpMessage,
) {
  try {
    await sendConversationMessage({ services, actor: systemActor(accountId, 'follow-up') }, followUpSender, {
      conversation_id: conversationId,
      message_id: followUpMessageId(conversationId, anchor, step),
      text: message.text,
    });
  } catch (err) {
    // A refusal (the conversation finished meanwhile, a chip gone) is final: the step counts as done. Anything
    // else (the database going away) ends the run unrecorded, and the step is tried again, same message_id.
    if (!(err instanceof AppError)) throw err;
    services.log.warn({ err, conversation: conversationId, step }, 'follow-up not sent');
  }
}

/** Works out due times and sends every follow-up due at `now`; answers how many it sent. */
export async function runDueFollowUps(services: Services, now = nowOf(services), opts: FollowUpOptions = {}) {
  const o = { ...DEFAULTS, ...opts };
  const sent = { count: 0 };
  // Rounds until nothing is left at `now`: each row either gets a later due time, is sent, or is claimed
  // elsewhere (then left out of the next round's candidates). A bounded number of rounds, whatever happens.
  for (let round = 0; round < 50; round++) {
    const rows = await runs.candidates(services.db, now, o.batch);
    let changed = 0;
    for (const r of rows) {
      try {
        await handle(services, r, { now, setting: r.setting, timeZone: r.timeZone, sent });
        changed++;
      } catch (err) {
        services.log.warn({ err, conversation: r.conversation.id }, 'follow-up failed; retried later');
      }
    }
    if (rows.length < o.batch || changed === 0) break;
  }
  return sent.count;
}

export const followUpWakeJob: JobKind = {
  name: FOLLOW_UP_WAKE_JOB,
  run: async (_data, services) => {
    await runDueFollowUps(services);
  },
  pollSeconds: 1,
  // The sweep comes anyway.
  retryLimit: 1,
  expireInSeconds: 600,
};

export const followUpSweepJob: JobKind = {
  name: 'follow-up-sweep',
  every: '* * * * *',
  atStart: true,
  retryLimit: 0,
  expireInSeconds: 600,
  run: async (_data, services) => {
    await runDueFollowUps(services);
  },
};
