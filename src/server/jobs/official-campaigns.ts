// The official campaigns' sending job (spec 3 §2.11, §3, §4; issue 19): an approved template to each person
// of the audience through the Cloud API, as fast as the number may send (chips.throughput messages a second,
// 80 by default), exactly once across kills. One runner job ('official-campaign-send') works on one campaign
// for up to RUN_MS, then queues its next run.
//
// The run: the campaign's lease (lease_until, as the regular job: one process at a time), then batches. A
// batch claims the people due (status 'sending', claim_until = now + the send's timeout and then some) and
// sends each through the chip's limiter (this process's: at most `throughput` sends in any second, spaced,
// slowed after a 130429), with `biz_opaque_callback_data: camp-<campaign>-<seq>`; the wamid is recorded the
// moment Graph answers (one UPDATE).
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
// The chip's limiter: at most `max` sends in any WINDOW_MS (a little over a second: requests reach Meta with
// some jitter, and Meta counts per second), each spaced WINDOW_MS / rate from the last, so never a burst. A
// 130429 lowers the rate by a fifth and pauses the chip a second; it climbs back 5 % of max a second.

const WINDOW_MS = 1050;
const CATCH_UP_MS = 100;

export class ChipLimiter {
  rate: number;
  private times: number[] = [];
  private nextSlot = Date.now();
  private pausedUntil = 0;
  private lastChange = Date.now();
  private chain: Promise<void> = Promise.resolve();
  rateLimited = 0;
  constructor(public max: number) {
    this.rate = max;
  }
  setMax(max: number) {
    if (max === this.max) return;
    this.max = Math.max(1, max);
    this.rate = Math.min(this.rate, this.max);
  }
  /** Resolves when one more send may go. */
  take(): Promise<void> {
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
    const now = Date.now();
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
  /** Meta answered 130429: slower, and a pause. */
  backoff() {
    const now = Date.now();
    this.rateLimited++;
    // Several sends in flight meet the same limit: one back-off for them.
    if (now - this.lastChange < 500 && this.pausedUntil > now) return;
    this.rate = Math.max(1, this.rate * 0.8);
    this.pausedUntil = now + 1000;
    this.nextSlot = this.pausedUntil;
    this.lastChange = now;
  }
  private async wait() {
    for (;;) {
      const now = Date.now();
      if (this.rate < this.max && now - this.lastChange >= 1000) {
        this.rate = Math.min(this.max, this.rate + this.max * 0.05);
        this.lastChange = now;
      }
      const rate = Math.max(1, Math.floor(this.rate));
      while (this.times.length && (this.times[0] ?? 0) <= now - WINDOW_MS) this.times.shift();
      // Slots on a timeline, WINDOW_MS / rate apart: a send held up (a busy event loop, a batch's start)
      // takes the slots it missed, at most CATCH_UP_MS of them; the window keeps any second within the rate.
      this.nextSlot = Math.max(this.nextSlot, now - CATCH_UP_MS);
      let at = Math.max(now, this.pausedUntil, this.nextSlot);
      if (this.times.length >= rate)
        at = Math.max(at, (this.times[this.times.length - rate] ?? 0) + WINDOW_MS);
      if (at <= now) {
        this.times.push(now);
        this.nextSlot += WINDOW_MS / rate;
        return;
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
  let first = true;
  let recovered = 0;
  try {
    for (;;) {
      const row = await campaignsRepo.find(db, actorOf(c.accountId), c.id, { filed: true });
      if (!row || (row.status !== 'started' && row.status !== 'scheduled')) return;
      c = row;
      if (c.cancelNow || c.filed) return void (await endCampaign(services, c, 'canceled'));
      const chip = await scheduledJobRows.chipOf(db, actorOf(c.accountId), c.chipId);
      if (!chip)
        return void (await endCampaign(services, c, 'error', campaignMessages.campaignChipNotUsable));
      if (!chip.official || chip.provider !== 'cloud-api')
        return void (await endCampaign(services, c, 'error', officialSendMessages.notOfficial));
      if (chip.status !== 'open') {
        // Nothing is sent on a disconnected chip: paused until it connects again (chipStatusChanged, the sweep).
        await rows.recount(db, actorOf(c.accountId), c.id);
        return announce(services, await campaignJobRows.release(db, c.id, { paused: true }));
      }
      if (c.paused) {
        // Its chip is back (a reconnection raced the pause): it goes on.
        await rows.unpause(db, actorOf(c.accountId), c.id);
        c = { ...c, paused: false };
      }
      if (!c.template) return void (await endCampaign(services, c, 'error', officialSendMessages.noTemplate));
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
      const stop = await sendBatch(services, c, chip, batch, limiter, timeoutMs, conversations);
      if (stop) return void (await endCampaign(services, c, 'error', stop));
      // Not awaited: the next batch keeps its pace (it never throws; the run's end recounts anyway).
      void officialCampaignTouched(services, c.accountId, c.id);
      if (Date.now() >= until) {
        // Long enough for one job: the next run goes on at once.
        await rows.recount(db, actorOf(c.accountId), c.id);
        const released = await campaignJobRows.release(db, c.id, { nextSendAt: new Date() });
        if (released) await queueOfficialCampaignRun(services, released, { at: new Date(), reason: 'more' });
        return;
      }
    }
  } finally {
    await conversations.idle();
  }
}

/**
 * Sends one batch through the chip's limiter, each outcome recorded as it comes. Answers the reason to stop
 * the campaign, if a send said so (the rest of the batch is then left waiting).
 */
async function sendBatch(
  services: Services,
  c: CampaignRow,
  chip: ChipRow,
  batch: RecipientRow[],
  limiter: ChipLimiter,
  timeoutMs: number,
  conversations: ConversationOpener,
): Promise<string | null> {
  const { db, config } = services;
  const graph = createGraphClient(config, services.log);
  const template = c.template;
  if (!template) return officialSendMessages.noTemplate;
  const imageUrl = (link: string) =>
    /^https?:\/\//.test(link) ? link : `${config.publicUrl}${link.startsWith('/') ? '' : '/'}${link}`;
  let stop: string | null = null;
  const inFlight = new Set<Promise<void>>();
  const undispatched: number[] = [];
  // A parameter the audience leaves empty reads the person's contact (its name for 'nome', its variables).
  const known = await rows.contactsOf(
    db,
    actorOf(c.accountId),
    batch.map((p) => p.phone),
  );

  const sendOne = async (p: RecipientRow) => {
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
        { timeoutMs },
      );
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
          stop ??= stopping;
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

  let failure: unknown = null;
  // A cancel, a pause (the chip disconnected) or an end meanwhile stops the batch within CHECK_EVERY_MS.
  let checked = Date.now();
  let halted = false;
  for (const p of batch) {
    if (stop || failure || halted) {
      undispatched.push(p.seq);
      continue;
    }
    while (inFlight.size >= MAX_IN_FLIGHT) await Promise.race(inFlight);
    await limiter.take();
    if (Date.now() - checked >= CHECK_EVERY_MS) {
      checked = Date.now();
      halted = !(await rows.mayGoOn(db, c.id));
    }
    if (stop || halted) {
      undispatched.push(p.seq);
      continue;
    }
    const send: Promise<void> = sendOne(p)
      .catch((err: unknown) => {
        failure ??= err;
      })
      .finally(() => inFlight.delete(send));
    inFlight.add(send);
  }
  await Promise.all(inFlight);
  await rows.unclaim(db, c.id, undispatched);
  if (failure) throw failure;
  return stop;
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
