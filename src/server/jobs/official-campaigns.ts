// The official campaigns' sending job (spec 3 §2.11, §3, §4; issue 19): an approved template to each person
// of the audience through the Cloud API, as fast as the number may send (chips.throughput messages a second,
// 80 by default), exactly once across kills. One runner job ('official-campaign-send') works on one campaign
// for up to RUN_MS, then queues its next run.
//
// The run: the campaign's lease (lease_until, as the regular job: one process at a time), then batches. A
// batch claims the people due (status 'sending', claim_until = now + the send's timeout and then some) and
// sends each through the chip's limiter (this process's: at most `throughput` sends on the wire in any second
// and a learned headroom, spaced, slowed after a 130429), with `biz_opaque_callback_data: camp-<campaign>-<seq>`;
// the wamid is recorded the moment Graph answers (one UPDATE). The next batch is claimed while the last one's
// answers come, so Meta's round trip leaves no gap in the pace.
//
// Exactly once. A send is either answered (its outcome recorded at once) or cut off: a kill between Graph's
// answer and our UPDATE, a timeout, a dropped connection. Meta may have such a send, so it is never simply
// sent again: the person stays 'sending'. Meta's status webhooks echo the callback data, and the first one
// records the wamid and marks the person sent, even when the run that sent it is gone. Only when the claim
// has run out and OFFICIAL_SEND_GRACE_SECONDS more have passed without any webhook naming the person is it
// sent again (Meta sends 'sent' within seconds of taking a message; the grace is minutes).
//
// Errors (Meta's 'Error codes' reference):
// - 130429 (throughput): the chip's limiter backs off and slows; the person waits for its turn again.
// - 131056 (pair rate limit): that person again after OFFICIAL_PAIR_RETRY_SECONDS.
// - Graph 5xx and transient codes (1, 2, 131000, 131016, 133004): Graph is down, for a moment or for minutes.
//   The chip pauses (OFFICIAL_RETRY_BASE_SECONDS, doubled at each such answer in a row, at most 12 times it):
//   it asks Graph now and then rather than hammer it. The person again after the same backoff, at most
//   MAX_TRANSIENT_ATTEMPTS times (about 9 minutes with the default base), then failed.
// - Template gone, paused or disabled (132001, 132015, 132016), the account locked or unpaid, the token: the
//   campaign stops with status error and the pt-BR reason. Also on a webhook pausing or rejecting it.
// - Anything else Graph refuses is the person's: failed with graphErrorReason and failure_code.
// A chip that disconnects pauses its campaigns (chipStatusChanged in ./campaigns.ts), as the regular ones.
//
// Rule 'all': each person sent gets their conversation (openOfficialConversation) beside the sends; a person
// sent whose conversation is not stored (a kill, a failure) is finished by the next run.
import { messages as texts } from '../../shared/messages';
import { campaignMessages, officialSendMessages } from '../../shared/messages-campaigns';
import { systemActor } from '../access';
import type { ChipRow } from '../channels/adapter';
import { ChannelError } from '../channels/adapter';
import { createGraphClient, GraphError, graphErrorReason } from '../channels/cloud-api/graph';
import type { Db } from '../db';
import { type CampaignRow, campaignJobRows, campaignsRepo } from '../domains/campaigns/campaigns.repo';
import { openOfficialConversation } from '../domains/campaigns/official-conversation';
import {
  OFFICIAL_RECOUNT_JOB,
  type OfficialRecountJob,
  officialCampaignTouched,
  recountOfficialCampaign,
} from '../domains/campaigns/official-recount';
import {
  callbackData,
  type RecipientRow,
  officialSendRows as rows,
} from '../domains/campaigns/official-send.repo';
import { officialTemplateContent } from '../domains/campaigns/official-template';
import { scheduledJobRows } from '../domains/scheduled-messages/scheduled-messages.repo';
import type { Services } from '../services';
import type { JobKind } from './runner';

export const OFFICIAL_CAMPAIGN_JOB = 'official-campaign-send';
export interface OfficialCampaignJob {
  id: string;
}

/** A run holds its campaign this long, renewed at each batch. */
const LEASE_MS = 30_000;
/**
 * A run sends for this long, then queues the next run: the job stays short, and a shutdown (which waits
 * 2 × 5 s for running jobs) finds it done.
 */
const RUN_MS = 8_000;
/** Tries of one person (cut-off sends) before it fails. Rate limits are not counted. */
const MAX_ATTEMPTS = 4;
/**
 * Tries of one person Graph answered as down (5xx, transient codes): 5 + 10 + 20 + 40 + 8 × 60 s ≈ 9 minutes with
 * the default base, so an outage of several minutes delays a campaign and fails nobody.
 */
export const MAX_TRANSIENT_ATTEMPTS = 12;
/** The longest backoff, in bases (60 s with the default 5 s). */
const MAX_BACKOFF_BASES = 12;
/** The wait after a person's `attempts`-th transient failure: base × 2^(attempts − 1), at most 12 bases. */
export const transientBackoffMs = (baseMs: number, attempts: number) =>
  baseMs * Math.min(MAX_BACKOFF_BASES, 2 ** Math.max(0, attempts - 1));
/**
 * When this process began, as the start of the grace of every send it finds unconfirmed (Grace in
 * official-send.repo.ts). The module loads as the server starts, a few seconds before it listens for Meta's
 * webhooks: well inside the grace's minutes.
 */
const TAKING_WEBHOOKS_SINCE = new Date();
/** In-flight sends of one run at most (Meta answers in ~0.3 s: 80/s needs ~25). */
const MAX_IN_FLIGHT = 200;

/** How often a batch looks whether its campaign may go on (a cancel, the chip disconnected, an end). */
const CHECK_EVERY_MS = 200;
/** Codes that stop the campaign: the template, the number or the account can't send now. */
function campaignStop(code: number | undefined, status: number): string | null {
  switch (code) {
    case 132001:
      return officialSendMessages.templateMissing;
    case 132015:
      return officialSendMessages.templatePaused;
    case 132016:
      return officialSendMessages.templateDisabled;
    case 131031: // account locked
    case 131042: // payment issue
    case 368: // temporarily blocked for policy violations
    case 133010: // number not registered
      return officialSendMessages.accountBlocked;
    case 190:
      return officialSendMessages.tokenInvalid;
  }
  return status === 401 ? officialSendMessages.tokenInvalid : null;
}

/**
 * Queues a run of the official campaign at `at` (default: its next planned send, or now). The key holds the
 * time: the runner keeps a key for a day even after its job ran.
 */
export function queueOfficialCampaignRun(
  services: Pick<Services, 'jobs'>,
  c: Pick<CampaignRow, 'id' | 'nextSendAt'>,
  opts: { tx?: Db; at?: Date; reason?: string } = {},
) {
  const at = opts.at ?? c.nextSendAt ?? new Date();
  return services.jobs.send<OfficialCampaignJob>(
    OFFICIAL_CAMPAIGN_JOB,
    { id: c.id },
    {
      startAfter: at,
      key: `${c.id}@${opts.reason ?? 'send'}@${at.getTime()}`,
      ...(opts.tx && { tx: opts.tx }),
    },
  );
}

// ---------------------------------------------------------------------------------------------------------
// The chip's limiter (issue 37). Meta counts a number's sends in a rolling second as they reach it. The limiter
// counts them from the moment each left on the wire (graph.ts's onSent), on the monotonic clock: at most `rate`
// within any second plus a headroom for the way to Meta, a send let through but not yet on the wire counted as
// the latest. So a send held up between the limiter and the wire (a busy event loop) can never crowd the next
// second. The headroom is learned: 25 ms at first, 25 ms more at each 130429 met with the window full (the
// jitter on the way was more than it), back 5 ms every 30 s without one. Sends are spaced (window / rate
// apart), not a burst; a send held up takes the slots it missed, at most CATCH_UP_MS of them. A 130429 with
// the window not full, or a second one within 10 s, lowers the rate by a fifth and pauses the chip a second
// (the number's real limit is lower than its throughput); it climbs back 5 % of max a second.

const SECOND_MS = 1000;
const HEADROOM_MS = 25;
const HEADROOM_STEP_MS = 25;
const MAX_HEADROOM_MS = 250;
const HEADROOM_DECAY_MS = 5;
const HEADROOM_DECAY_EVERY_MS = 30_000;
const CATCH_UP_MS = 250;
/** A 130429 again within this long is no jitter: the rate comes down. */
const RATE_LIMIT_REPEAT_MS = 10_000;
/** Waiting on sends not yet on the wire: looked at again this often even if none says so. */
const PENDING_RECHECK_MS = 50;

const clock = () => performance.now();

/** A send the limiter let go: `sent()` when it is on the wire (or gave up; once counts), `cancel()` if it never goes. */
export interface SendSlot {
  sent(): void;
  cancel(): void;
}

export class ChipLimiter {
  rate: number;
  /** What the way to Meta may add to a send's moment, learned from its 130429s. */
  headroomMs = HEADROOM_MS;
  rateLimited = 0;
  /** When the latest sends left on the wire (clock(), ascending), the last MAX window's. */
  private onWire: number[] = [];
  /** Sends let through, not yet on the wire. */
  private pending = 0;
  private nextSlot = clock();
  private pausedUntil = 0;
  private lastChange = clock();
  private lastHeadroomChange = clock();
  private lastRateLimit = Number.NEGATIVE_INFINITY;
  private chain: Promise<unknown> = Promise.resolve();
  private wake: (() => void) | null = null;
  constructor(public max: number) {
    this.rate = max;
  }
  setMax(max: number) {
    if (max === this.max) return;
    this.max = Math.max(1, max);
    this.rate = Math.min(this.rate, this.max);
  }
  /** The rolling window sends are counted in. */
  get windowMs() {
    return SECOND_MS + this.headroomMs;
  }
  /** Resolves when one more send may go, with its slot to say when it is on the wire. */
  take(): Promise<SendSlot> {
    const turn = this.chain.then(() => this.wait());
    this.chain = turn.catch(() => {});
    return turn;
  }
  /** Graph answered as down this many times in a row (reset by a send it took). */
  private downStreak = 0;
  /**
   * Graph answered as down (5xx, a transient code): the chip pauses, longer at each such answer in a row
   * (transientBackoffMs), and starts again at one send a second: after an outage's pause one send asks
   * whether Graph is back, not a burst.
   */
  down(baseMs: number) {
    const now = clock();
    // Sends in flight meet the same outage: one pause for them.
    if (this.pausedUntil > now) return;
    this.downStreak++;
    this.rate = 1;
    this.pausedUntil = now + transientBackoffMs(baseMs, this.downStreak);
    this.nextSlot = this.pausedUntil;
    this.lastChange = this.pausedUntil;
  }
  /** Graph took a send: the next outage starts from the shortest pause. */
  up() {
    this.downStreak = 0;
  }
  /**
   * Meta answered 130429. The window full: Meta counted more of them in its second than we did, the way there
   * took longer than the headroom, which grows; no pause (by the time the answer is here the crowd has passed;
   * the sends refused go again). The window not full, or a 130429 again within REPEAT_MS: the number's real
   * limit is lower than its throughput, so a fifth slower and a second's pause.
   */
  backoff() {
    const now = clock();
    this.rateLimited++;
    // Several sends in flight meet the same limit: one back-off for them.
    if (now - this.lastRateLimit < 500) return;
    const again = now - this.lastRateLimit < RATE_LIMIT_REPEAT_MS;
    this.lastRateLimit = now;
    const inWindow = this.onWire.filter((t) => t > now - this.windowMs).length + this.pending;
    const full = inWindow >= Math.floor(this.rate) * 0.9;
    if (full) {
      this.headroomMs = Math.min(MAX_HEADROOM_MS, this.headroomMs + HEADROOM_STEP_MS);
      this.lastHeadroomChange = now;
      if (!again) return;
    }
    this.rate = Math.max(1, this.rate * 0.8);
    this.pausedUntil = now + SECOND_MS;
    this.nextSlot = this.pausedUntil;
    this.lastChange = now;
  }
  private slot(): SendSlot {
    this.pending++;
    let done = false;
    const settle = (onWire: boolean) => {
      if (done) return;
      done = true;
      this.pending--;
      if (onWire) this.onWire.push(clock());
      this.wake?.();
    };
    return { sent: () => settle(true), cancel: () => settle(false) };
  }
  private async wait(): Promise<SendSlot> {
    for (;;) {
      const now = clock();
      if (this.rate < this.max && now - this.lastChange >= SECOND_MS) {
        this.rate = Math.min(this.max, this.rate + this.max * 0.05);
        this.lastChange = now;
      }
      if (this.headroomMs > HEADROOM_MS && now - this.lastHeadroomChange >= HEADROOM_DECAY_EVERY_MS) {
        this.headroomMs = Math.max(HEADROOM_MS, this.headroomMs - HEADROOM_DECAY_MS);
        this.lastHeadroomChange = now;
      }
      const rate = Math.max(1, Math.floor(this.rate));
      const windowMs = this.windowMs;
      while ((this.onWire[0] ?? now) <= now - SECOND_MS - MAX_HEADROOM_MS) this.onWire.shift();
      // Room in the window for sends on the wire: those still on their way to it count as the latest.
      const room = rate - this.pending;
      if (room <= 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, PENDING_RECHECK_MS);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = null;
        continue;
      }
      // Slots on a timeline, window / rate apart; the window is what keeps any second within the rate.
      this.nextSlot = Math.max(this.nextSlot, now - CATCH_UP_MS);
      let at = Math.max(now, this.pausedUntil, this.nextSlot);
      const oldest = this.onWire[this.onWire.length - room];
      if (oldest !== undefined) at = Math.max(at, oldest + windowMs);
      if (at <= now) {
        this.nextSlot += windowMs / rate;
        return this.slot();
      }
      await new Promise((r) => setTimeout(r, at - now));
    }
  }
}

const limiters = new Map<string, ChipLimiter>();
export function chipLimiter(chip: Pick<ChipRow, 'id' | 'throughput'>) {
  let l = limiters.get(chip.id);
  if (!l) {
    l = new ChipLimiter(Math.max(1, chip.throughput));
    limiters.set(chip.id, l);
  }
  l.setMax(Math.max(1, chip.throughput));
  return l;
}

// ---------------------------------------------------------------------------------------------------------

function announce(services: Services, c: Pick<CampaignRow, 'id' | 'accountId'> | null) {
  if (c)
    services.realtime.toAccount(c.accountId, { type: 'official_campaign_updated', message: { _id: c.id } });
}

/** The job acts for the campaign's account. */
const actorOf = (accountId: string) => systemActor(accountId, 'official-campaigns');

async function endCampaign(
  services: Services,
  c: Pick<CampaignRow, 'id' | 'accountId'>,
  status: 'finished' | 'canceled' | 'error',
  failure: string | null = null,
) {
  await rows.recount(services.db, actorOf(c.accountId), c.id);
  const ended = await campaignJobRows.end(services.db, c.id, status, failure);
  announce(services, ended);
  return ended;
}

/** One run of an official campaign: start it, send batches for up to RUN_MS, pause, stop or end it. */
export async function runOfficialCampaign(services: Services, id: string) {
  const { db } = services;
  const c = await campaignJobRows.lease(db, id, LEASE_MS);
  if (!c) {
    // Another run holds it (or held it and died): look again when its lease ends.
    const state = await campaignJobRows.state(db, id);
    if (state?.leaseUntil && (state.status === 'scheduled' || state.status === 'started'))
      await queueOfficialCampaignRun(
        services,
        { id, nextSendAt: null },
        { at: new Date(Math.max(state.leaseUntil.getTime(), Date.now()) + 50), reason: 'lease' },
      );
    return;
  }
  try {
    await run(services, c);
  } catch (err) {
    // Unexpected (the database, a bug): the lease is given back and the runner retries the job.
    await campaignJobRows.release(db, id).catch(() => null);
    throw err;
  }
}

async function run(services: Services, leased: CampaignRow & { due: boolean }) {
  const { db, config } = services;
  let c: CampaignRow = leased;
  if (!c.official) {
    // Not ours: the regular job sends it.
    await campaignJobRows.release(db, c.id);
    return;
  }
  if (c.cancelNow || c.filed) return void (await endCampaign(services, c, 'canceled'));
  if (!leased.due) {
    const released = await campaignJobRows.release(db, c.id);
    if (released) await queueOfficialCampaignRun(services, released);
    return;
  }
  if (c.status === 'scheduled') {
    const problem = await db.transaction(async (tx) => {
      const people = await campaignJobRows.start(tx as Db, c, campaignMessages.campaignContactIgnored);
      if (people === null) return campaignMessages.audienceNotFound;
      if (people === 0) return campaignMessages.campaignEmptyAudience;
      return null;
    });
    if (problem) return void (await endCampaign(services, c, 'error', problem));
    c = { ...c, status: 'started' };
    announce(services, c);
  }
  const grace = { ms: config.OFFICIAL_SEND_GRACE_SECONDS * 1000, from: TAKING_WEBHOOKS_SINCE };
  const timeoutMs = config.OFFICIAL_SEND_TIMEOUT_SECONDS * 1000;
  const until = Date.now() + RUN_MS;
  const conversations = new ConversationOpener(services);
  const sends = new RunSends();
  // Every way out of the run waits for its sends in flight first (their outcomes are the campaign's before it
  // is counted, released or ended); a send's reason to stop the campaign ends it instead.
  const leave = async (then: () => Promise<unknown>) => {
    const stop = await sends.settle();
    await (stop ? endCampaign(services, c, 'error', stop) : then());
  };
  let first = true;
  let recovered = 0;
  try {
    for (;;) {
      const row = await campaignsRepo.find(db, actorOf(c.accountId), c.id, { filed: true });
      // Ended meanwhile, or canceled: that stands, whatever a send said.
      if (!row || (row.status !== 'started' && row.status !== 'scheduled'))
        return void (await sends.settle());
      c = row;
      if (c.cancelNow || c.filed) {
        await sends.settle();
        return void (await endCampaign(services, c, 'canceled'));
      }
      const chip = await scheduledJobRows.chipOf(db, actorOf(c.accountId), c.chipId);
      if (!chip)
        return void (await leave(() =>
          endCampaign(services, c, 'error', campaignMessages.campaignChipNotUsable),
        ));
      if (!chip.official || chip.provider !== 'cloud-api')
        return void (await leave(() => endCampaign(services, c, 'error', officialSendMessages.notOfficial)));
      if (chip.status !== 'open') {
        // Nothing is sent on a disconnected chip: paused until it connects again (chipStatusChanged, the sweep).
        return void (await leave(async () => {
          await rows.recount(db, actorOf(c.accountId), c.id);
          announce(services, await campaignJobRows.release(db, c.id, { paused: true }));
        }));
      }
      if (c.paused) {
        // Its chip is back (a reconnection raced the pause): it goes on.
        await rows.unpause(db, actorOf(c.accountId), c.id);
        c = { ...c, paused: false };
      }
      if (!c.template)
        return void (await leave(() => endCampaign(services, c, 'error', officialSendMessages.noTemplate)));
      await rows.renewLease(db, actorOf(c.accountId), c.id, LEASE_MS);

      if (first && c.conversationCreationRule === 'all') await conversations.finishLeftOver(c, chip);
      first = false;
      if (Date.now() - recovered >= 2000) {
        recovered = Date.now();
        await rows.recover(db, c.id, grace, MAX_ATTEMPTS, officialSendMessages.unconfirmed);
      }
      const limiter = chipLimiter(chip);
      const batch = await rows.claim(db, c.id, Math.max(1, Math.ceil(limiter.rate)), timeoutMs + 10_000);
      if (!batch.length) {
        if (sends.size) {
          // The last sends' answers may put people back (a 130429): claimed again once they are in.
          const stop = await sends.settle();
          if (stop) return void (await endCampaign(services, c, 'error', stop));
          continue;
        }
        const left = await rows.left(db, c.id, grace);
        if (!left.waiting && !left.sending) {
          await conversations.idle();
          return void (await endCampaign(services, c, 'finished'));
        }
        // People due later (a retry's wait, an unconfirmed send's grace): the next run at that moment.
        const at = new Date(Math.max(Date.now() + 50, left.nextDue?.getTime() ?? Date.now() + 1000));
        await rows.recount(db, actorOf(c.accountId), c.id);
        const released = await campaignJobRows.release(db, c.id, { nextSendAt: at });
        announce(services, released);
        if (released) await queueOfficialCampaignRun(services, released, { at, reason: 'later' });
        return;
      }
      // The batch's last sends are still in flight: the next batch is claimed meanwhile, so Meta's round trip
      // is no gap in the pace.
      await sendBatch(services, c, chip, batch, limiter, timeoutMs, conversations, sends);
      if (sends.stopping) return void (await leave(async () => {}));
      // Not awaited: the next batch keeps its pace (it never throws; the run's end recounts anyway).
      void officialCampaignTouched(services, c.accountId, c.id);
      if (Date.now() >= until) {
        // Long enough for one job: the next run goes on at once.
        return void (await leave(async () => {
          await rows.recount(db, actorOf(c.accountId), c.id);
          const released = await campaignJobRows.release(db, c.id, { nextSendAt: new Date() });
          if (released)
            await queueOfficialCampaignRun(services, released, { at: new Date(), reason: 'more' });
        }));
      }
    }
  } finally {
    // An unexpected failure: the sends in flight still record their outcomes before the lease is given back.
    await sends.settle().catch(() => null);
    await conversations.idle();
  }
}

/** A run's sends in flight, across its batches, and what they said about the campaign. */
class RunSends {
  private inFlight = new Set<Promise<void>>();
  /** A send's reason to stop the campaign (the template, the number, the account). */
  stop: string | null = null;
  /** Unexpected (the database, a bug): the run fails and the runner retries it. */
  failure: unknown = null;
  get size() {
    return this.inFlight.size;
  }
  /** No more sends for this run. */
  get stopping() {
    return this.stop !== null || this.failure !== null;
  }
  add(send: Promise<void>) {
    const tracked: Promise<void> = send
      .catch((err: unknown) => {
        this.failure ??= err;
      })
      .finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  }
  async room(max: number) {
    while (this.inFlight.size >= max) await Promise.race(this.inFlight);
  }
  /** Every send answered (or cut off): the reason to stop, if one said so; throws a failure. */
  async settle() {
    while (this.inFlight.size) await Promise.all(this.inFlight);
    if (this.failure) throw this.failure;
    return this.stop;
  }
}

/**
 * Sends one batch through the chip's limiter, each outcome recorded as it comes (in `sends`, not awaited).
 * Once a send says the campaign stops, the rest of the batch is left waiting.
 */
async function sendBatch(
  services: Services,
  c: CampaignRow,
  chip: ChipRow,
  batch: RecipientRow[],
  limiter: ChipLimiter,
  timeoutMs: number,
  conversations: ConversationOpener,
  sends: RunSends,
) {
  const { db, config } = services;
  const graph = createGraphClient(config, services.log);
  const template = c.template;
  if (!template) {
    sends.stop ??= officialSendMessages.noTemplate;
    return;
  }
  const imageUrl = (link: string) =>
    /^https?:\/\//.test(link) ? link : `${config.publicUrl}${link.startsWith('/') ? '' : '/'}${link}`;
  const undispatched: number[] = [];
  // A parameter the audience leaves empty reads the person's contact (its name for 'nome', its variables).
  const known = await rows.contactsOf(
    db,
    actorOf(c.accountId),
    batch.map((p) => p.phone),
  );

  const sendOne = async (p: RecipientRow, slot: SendSlot) => {
    const { components } = officialTemplateContent(
      c.id,
      template,
      c.templateParameters,
      p.data,
      imageUrl,
      known.get(p.phone),
    );
    try {
      const answer = await graph.post<{ messages?: { id?: string }[] }>(
        `${chip.phoneNumberId}/messages`,
        {
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          to: p.phone,
          type: 'template',
          template: { name: template.name, language: { code: template.language }, components },
          biz_opaque_callback_data: callbackData(c.id, p.seq),
        },
        { timeoutMs, onSent: slot.sent },
      );
      // Answered, so it was on the wire (if the hook did not say so).
      slot.sent();
      const wamid = answer.messages?.[0]?.id;
      if (!wamid) {
        // Answered without a message: nothing was taken.
        await rows.fail(db, p, texts.providerFailed, null);
        return;
      }
      limiter.up();
      const sent = await rows.sent(db, p, wamid);
      if (sent && c.conversationCreationRule === 'all')
        conversations.open(c, chip, { ...sent, platformMessageId: wamid });
    } catch (err) {
      if (err instanceof GraphError) {
        const code = err.code;
        if (code === 130429) {
          limiter.backoff();
          await rows.retry(db, p, 0, false);
          return;
        }
        if (code === 131056) {
          await rows.retry(db, p, config.OFFICIAL_PAIR_RETRY_SECONDS * 1000, false);
          return;
        }
        const stopping = campaignStop(code, err.status);
        if (stopping) {
          sends.stop ??= stopping;
          await rows.retry(db, p, 0, false);
          return;
        }
        if (err.transient) {
          const baseMs = config.OFFICIAL_RETRY_BASE_SECONDS * 1000;
          limiter.down(baseMs);
          if (p.attempts >= MAX_TRANSIENT_ATTEMPTS)
            await rows.fail(db, p, graphErrorReason(code, err.status), code ?? null);
          else await rows.retry(db, p, transientBackoffMs(baseMs, p.attempts));
          return;
        }
        await rows.fail(db, p, graphErrorReason(code, err.status), code ?? null);
        return;
      }
      if (err instanceof ChannelError) {
        // No answer (a timeout, a dropped connection): Meta may have it. The grace decides.
        services.log.warn({ campaignId: c.id, seq: p.seq }, 'official campaign: a send got no answer');
        await rows.unconfirmed(db, p);
        return;
      }
      throw err;
    }
  };

  // A cancel, a pause (the chip disconnected) or an end meanwhile stops the batch within CHECK_EVERY_MS; looked
  // at after the limiter's turn, which at a slow number's pace is most of the wait: a send waiting for its turn
  // when a webhook paused the template is not sent (only one already let through may still land).
  let checked = Date.now();
  let halted = false;
  for (const p of batch) {
    if (sends.stopping || halted) {
      undispatched.push(p.seq);
      continue;
    }
    await sends.room(MAX_IN_FLIGHT);
    const slot = await limiter.take();
    if (!sends.stopping && Date.now() - checked >= CHECK_EVERY_MS) {
      checked = Date.now();
      halted = !(await rows.mayGoOn(db, c.id));
    }
    if (sends.stopping || halted) {
      slot.cancel();
      undispatched.push(p.seq);
      continue;
    }
    // Whatever happened, the send counts as gone from now on (at worst a slot too many for a second).
    sends.add(sendOne(p, slot).finally(slot.sent));
  }
  await rows.unclaim(db, c.id, undispatched);
}

/**
 * Rule 'all': opens each sent person's conversation beside the sends (a few at a time, so the sends keep
 * their pace), and stores its id; what a kill or a failure left is finished by the next run.
 */
class ConversationOpener {
  private queue: { c: CampaignRow; chip: ChipRow; p: RecipientRow & { platformMessageId: string } }[] = [];
  private running = 0;
  private waiters: (() => void)[] = [];
  private failed = new Set<string>();
  constructor(private services: Services) {}
  open(c: CampaignRow, chip: ChipRow, p: RecipientRow & { platformMessageId: string }) {
    this.queue.push({ c, chip, p });
    this.pump();
  }
  private pump() {
    while (this.running < 4 && this.queue.length) {
      const item = this.queue.shift();
      if (!item) break;
      this.running++;
      this.one(item).finally(() => {
        this.running--;
        this.pump();
        if (!this.running && !this.queue.length) for (const w of this.waiters.splice(0)) w();
      });
    }
  }
  private async one({
    c,
    chip,
    p,
  }: {
    c: CampaignRow;
    chip: ChipRow;
    p: RecipientRow & { platformMessageId: string };
  }) {
    try {
      const id = await openOfficialConversation(this.services, c, chip, {
        phone: p.phone,
        data: p.data,
        platformMessageId: p.platformMessageId,
        sentAt: p.sentAt ?? new Date(),
      });
      await rows.setConversation(this.services.db, p, id);
    } catch (err) {
      this.failed.add(`${p.campaignId}:${p.seq}`);
      this.services.log.warn(
        { err, campaignId: c.id, seq: p.seq },
        'official campaign: conversation not opened',
      );
    }
  }
  idle() {
    if (!this.running && !this.queue.length) return Promise.resolve();
    return new Promise<void>((r) => this.waiters.push(r));
  }
  /** Persons sent without their conversation (not being opened by this run): opened now. */
  async finishLeftOver(c: CampaignRow, chip: ChipRow) {
    await this.idle();
    const left = await rows.withoutConversation(this.services.db, c.id, 200);
    for (const p of left) {
      if (this.failed.has(`${p.campaignId}:${p.seq}`) || !p.platformMessageId) continue;
      this.open(c, chip, { ...p, platformMessageId: p.platformMessageId });
    }
  }
}

export const officialCampaignRunJob: JobKind<OfficialCampaignJob> = {
  name: OFFICIAL_CAMPAIGN_JOB,
  run: (data, services) => runOfficialCampaign(services, data.id),
  // A run sends for up to RUN_MS; several campaigns run side by side.
  pollSeconds: 0.5,
  batchSize: 5,
  concurrency: 5,
  workers: 2,
  expireInSeconds: 120,
  retryLimit: 20,
  retryDelaySeconds: 5,
};

/** The campaign's counters and the screens' event, at most once a second per campaign (official-recount.ts). */
export const officialCampaignRecountJob: JobKind<OfficialRecountJob> = {
  name: OFFICIAL_RECOUNT_JOB,
  run: (data, services) => recountOfficialCampaign(services, data),
  batchSize: 10,
  concurrency: 4,
  retryLimit: 3,
  retryDelaySeconds: 1,
};
