// The automatic follow-up engine (spec 3 §2.12, §3 Auto follow-up per chip, §9; issue 20).
//
// WHY a sweep over columns of the conversation, not one pg-boss job per follow-up: when a follow-up falls due
// depends on things that change after the business's message (the chip's setting, the hours window, the
// customer's reply, 'Desativar follow-up automático', a finish), and pg-boss's startAfter reads the
// database's clock, which tests cannot move. So the state lives on the conversation, written with the message
// that changes it (append-message.ts, one transaction):
// - follow_up_anchor: when the business's last message, still unanswered, was stored. A team message (an
//   attendant, a chatbot, a flow) sets it and resets the rest; the customer's message clears it (the follow-up
//   stops at the reply); a follow-up itself leaves it alone.
// - follow_up_step / follow_up_last_at: the last follow-up sent for that anchor (0 to 3) and when.
// - follow_up_due_at: when the next one is due, cached by this engine (null: to be worked out; NEVER: none
//   left). Saving a setting clears the chip's cached times.
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
// Exactly once: the conversation is claimed in one UPDATE (a lease, only if its anchor and step are still the
// ones planned), the message goes through the attendants' send path with the message_id
// `fu-<conversation>-<anchor ms>-<step>` (one message per id, however often retried), and the step is then
// recorded. A process killed between the send and the record leaves the lease to run out; the next claim sends
// the same message_id again, finds it stored and only records the step: never a second message.
//
// The follow-up is the system's message (origin 'chatbot', no attendant, no signature): the conversation
// shows it as the bot's, like a flow's or an AI chatbot's answer.
import { type FollowUpMessage, followUpApplies, nextFollowUp } from '../../shared/rules/follow-up';
import { systemActor } from '../access';
import { followUpSender, sendConversationMessage } from '../domains/conversations/conversations.service';
import {
  type FollowUpCandidate as Candidate,
  followUpRunsRepo as runs,
} from '../domains/follow-ups/follow-up-runs.repo';
import { FOLLOW_UP_WAKE_JOB, wakeAt } from '../domains/follow-ups/wake';
import { AppError } from '../http/errors';
import type { Services } from '../services';
import type { JobKind } from './runner';

export interface FollowUpOptions {
  /** How long a claim holds a conversation: after it, another claim may take it again. */
  leaseMs?: number;
  /** Conversations looked at per round. */
  batch?: number;
}

const DEFAULTS = { leaseMs: 90_000, batch: 100 } satisfies FollowUpOptions;

/** The cached due time of a conversation with no follow-up left for its anchor (until a new anchor or a save). */
export const NEVER = new Date('9999-12-31T00:00:00Z');

/** The message_id the send path dedupes on: one message per conversation, anchor and step. */
export const followUpMessageId = (conversationId: string, anchor: Date, step: number) =>
  `fu-${conversationId}-${anchor.getTime()}-${step}`;

const nowOf = (services: Services) => services.clock?.now() ?? new Date();
const minuteMs = (services: Services) => services.config.FOLLOW_UP_MINUTE_SECONDS * 1000;

/** Works out one conversation's next follow-up; sends it when due at `now`. Answers whether it sent one. */
async function handle(services: Services, r: Candidate, now: Date, o: typeof DEFAULTS): Promise<boolean> {
  const c = r.conversation;
  const anchor = c.followUpAnchor;
  if (!anchor) return false;
  const actor = systemActor(c.accountId, 'follow-up');
  const view = {
    finished: c.finishedAt?.toISOString() ?? null,
    is_manual: c.isManual,
    chatbot_type: c.chatbotType,
  };
  const setting = r.setting;
  if (!followUpApplies(view, setting)) return false;
  const plan = nextFollowUp(
    { start_time: setting.startTime, end_time: setting.endTime, messages: setting.messages },
    { anchor, step: c.followUpStep, lastAt: c.followUpLastAt },
    r.timeZone,
    minuteMs(services),
  );
  if (!plan) {
    await runs.cacheDue(services.db, actor, c, NEVER);
    return false;
  }
  if (plan.dueAt > now) {
    if (c.followUpDueAt?.getTime() !== plan.dueAt.getTime())
      await runs.cacheDue(services.db, actor, c, plan.dueAt);
    await wakeAt(services, plan.dueAt);
    return false;
  }
  // Due: one process takes it, only while nothing changed since it was read.
  if (!(await runs.claim(services.db, actor, c, now, o.leaseMs))) return false;
  await send(services, c.accountId, c.id, anchor, plan.step, plan.message);
  await runs.recordStep(services.db, actor, c.id, anchor, plan.step, now);
  return true;
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
    // else (the database going away) leaves the claim to run out, and the step is tried again, same message_id.
    if (!(err instanceof AppError)) throw err;
    services.log.warn({ err, conversation: conversationId, step }, 'follow-up not sent');
  }
}

/** Works out due times and sends every follow-up due at `now`; answers how many it sent. */
export async function runDueFollowUps(services: Services, now = nowOf(services), opts: FollowUpOptions = {}) {
  const o = { ...DEFAULTS, ...opts };
  let sent = 0;
  // Rounds until nothing is left at `now`: each row either gets a later due time, is sent, or is claimed
  // elsewhere (then skipped by the next round's claim test). A bounded number of rounds, whatever happens.
  for (let round = 0; round < 50; round++) {
    const rows = await runs.candidates(services.db, now, o.batch);
    let changed = 0;
    for (const r of rows) {
      try {
        if (await handle(services, r, now, o)) sent++;
        changed++;
      } catch (err) {
        services.log.warn({ err, conversation: r.conversation.id }, 'follow-up failed; retried later');
      }
    }
    if (rows.length < o.batch || changed === 0) break;
  }
  return sent;
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
