// The campaigns' sending job (spec 3 §3 Campaign, §4; issue 18): one person at a time per campaign, paced,
// exactly once, surviving kills. One runner job ('campaign-send') does one step of one campaign and queues
// the next step, due at the next planned send, in the transaction that records the step.
//
// Exactly once, in three parts:
// - A lease on the campaign row (lease_until, 15 s): one process works on a campaign at a time. A process
//   that dies leaves it to run out; the next run (its retry, the sweep, a restart) takes it again.
// - The person is claimed (status 'sending') and sent by the attendants' send path with the message_id
//   `camp-<campaign>-<seq>`: the path stores one message per message_id and calls the provider once for it,
//   so a person re-driven after a crash (still 'sending') gets the stored message read back, never a second
//   send. A flow campaign marks the person sent in the flow start's own transaction.
// - The person's outcome, the campaign's counters, its next planned send and the next job are one
//   transaction: a crash before it re-drives the same person (deduped above), after it nothing is redone.
// A lease that runs out while its holder is still sending (a provider stuck for 15 s) is harmless for the same
// reason: the second run finds the message stored and waits for its outcome.
//
// Pacing: next planned = max(planned + interval + jitter, sent + interval), jitter random in [0, interval/4):
// never faster than the interval, no drift, and after a pause (chip or server down) the next send goes at once
// and the one after it an interval later: no burst. The pace belongs to the chip (chipWait): campaigns sharing
// one chip take turns at the slowest interval among them, counted from the chip's last campaign send. A disconnected chip pauses the campaign (nothing sent);
// its reconnection (chipStatusChanged) or the sweep resumes it.
//
// The people are materialized when the campaign starts (campaign_recipients, in the start's transaction): an
// audience deleted before the start is an error on the campaign; one deleted mid-send loses nobody, its
// people are already the campaign's.
import { MESSAGE_STATUS } from '../../shared/constants';
import { messages as texts } from '../../shared/messages';
import { campaignMessages } from '../../shared/messages-campaigns';
import { systemActor } from '../access';
import { ChannelError } from '../channels/adapter';
import type { Db } from '../db';
import { type CampaignRow, campaignJobRows as rows } from '../domains/campaigns/campaigns.repo';
import { campaignProgress, intervalMs, jitterMs } from '../domains/campaigns/progress';
import { sendConversationMessage } from '../domains/conversations/conversations.service';
import { contactByPhone, openTeamConversation } from '../domains/conversations/open-conversation';
import { loadConversation } from '../domains/conversations/present';
import { flowsRepo } from '../domains/flows/flows.repo';
import { fillVariables } from '../domains/flows/nodes';
import { startFlowRun } from '../domains/flows/start';
import { scheduledJobRows } from '../domains/scheduled-messages/scheduled-messages.repo';
import { usersRepo } from '../domains/users/users.repo';
import { AppError } from '../http/errors';
import type { Services } from '../services';
import { queueOfficialCampaignRun } from './official-campaigns';
import type { JobKind } from './runner';

/** How long a run holds a campaign: longer than one text send, short, as a killed run's campaign waits for it. */
const LEASE_MS = 15_000;
/** A person whose message is still being sent (a send cut off by a crash) is looked at again after this. */
const PENDING_RETRY_MS = 5_000;

export const CAMPAIGN_JOB = 'campaign-send';
export interface CampaignJob {
  id: string;
}

/** The message_id the send path dedupes on: one provider send per person of a campaign, however often retried. */
export const campaignMessageId = (campaignId: string, seq: number) => `camp-${campaignId}-${seq}`;

/**
 * Queues a run of the campaign at `at` (default: its next planned send). The key holds the time: the runner
 * keeps a key for a day even after its job ran, and each planned send is a new moment.
 */
export function queueCampaignRun(
  services: Pick<Services, 'jobs'>,
  c: Pick<CampaignRow, 'id' | 'nextSendAt'>,
  opts: { tx?: Db; at?: Date; reason?: string } = {},
) {
  const at = opts.at ?? c.nextSendAt ?? new Date();
  return services.jobs.send<CampaignJob>(
    CAMPAIGN_JOB,
    { id: c.id },
    {
      startAfter: at,
      key: `${c.id}@${opts.reason ?? 'send'}@${at.getTime()}`,
      ...(opts.tx && { tx: opts.tx }),
    },
  );
}

async function announce(services: Services, c: CampaignRow | null) {
  if (c)
    services.realtime.toCampaign(c.id, {
      type: 'campaign_progress',
      message: await campaignProgress(services, systemActor(c.accountId, 'campaigns'), c),
    });
}

/** One step of a campaign: start it, pause it, cancel it, or send to its next person if due. */
export async function runCampaign(services: Services, id: string) {
  const { db } = services;
  const c = await rows.lease(db, id, LEASE_MS);
  if (!c) {
    // Another run holds it (or held it and died): look again when its lease ends.
    const state = await rows.state(db, id);
    if (state?.leaseUntil && (state.status === 'scheduled' || state.status === 'started'))
      await queueCampaignRun(
        services,
        { id, nextSendAt: null },
        {
          at: new Date(Math.max(state.leaseUntil.getTime(), Date.now()) + 50),
          reason: 'lease',
        },
      );
    return;
  }
  try {
    await step(services, c);
  } catch (err) {
    // Unexpected (the database, a bug): the lease is given back and the runner retries the job.
    await rows.release(db, id).catch(() => null);
    throw err;
  }
}

async function step(services: Services, leased: CampaignRow & { due: boolean }) {
  const { db } = services;
  let c: CampaignRow = leased;
  if (c.official) {
    // Queued here by mistake: the official job sends it.
    const released = await rows.release(db, c.id);
    if (released) await queueOfficialCampaignRun(services, released, { reason: 'official' });
    return;
  }
  if (c.cancelNow || c.filed) return announce(services, await rows.end(db, c.id, 'canceled'));
  if (!leased.due) {
    // Early (an edit moved it, a resume, the sweep): the run at its time does it.
    const released = await rows.release(db, c.id);
    if (released) await queueCampaignRun(services, released);
    return;
  }
  if (c.status === 'scheduled') {
    const started = await db.transaction(async (tx) => {
      const people = await rows.start(tx as Db, c, campaignMessages.campaignContactIgnored);
      if (people === null) return rows.end(tx as Db, c.id, 'error', campaignMessages.audienceNotFound);
      if (people === 0) return rows.end(tx as Db, c.id, 'error', campaignMessages.campaignEmptyAudience);
      return null;
    });
    if (started) return announce(services, started);
    c = { ...c, status: 'started' };
  }
  const chip = await scheduledJobRows.chipOf(db, systemActor(c.accountId, 'campaigns'), c.chipId);
  // A deleted chip will not come back: the campaign stops with the reason.
  if (!chip)
    return announce(services, await rows.end(db, c.id, 'error', campaignMessages.campaignChipNotUsable));
  if (chip.status !== 'open') {
    // Nothing is sent on a disconnected chip: paused until it connects again (chipStatusChanged, the sweep).
    return announce(services, await rows.release(db, c.id, { paused: true }));
  }
  if (
    c.messageType === 'flow' &&
    !(c.flowId && (await flowsRepo.find(db, systemActor(c.accountId, 'campaigns'), c.flowId)))
  )
    return announce(services, await rows.end(db, c.id, 'error', texts.flowNotFound));
  const creator = await usersRepo.findById(db, c.userId);
  if (!creator || creator.user.filed)
    return announce(services, await rows.end(db, c.id, 'error', texts.scheduleSendFailed));

  // Pacing belongs to the chip: the next person is claimed only once the chip's pace allows it.
  const claimed = await db.transaction(async (tx) => {
    const wait = await chipWait(services, tx as Db, c);
    return wait ? { wait } : { person: await rows.claimNext(tx as Db, c) };
  });
  if ('wait' in claimed) {
    const released = await rows.release(db, c.id);
    if (released) await queueCampaignRun(services, released, { at: claimed.wait, reason: 'chip' });
    return;
  }
  const { person } = claimed;
  if (!person) {
    // Nobody left (or a cancel came meanwhile): the campaign ends.
    const fresh = await rows.release(db, c.id);
    if (fresh?.cancelNow) return announce(services, await rows.end(db, c.id, 'canceled'));
    return announce(services, await rows.end(db, c.id, 'finished'));
  }
  const plannedAt = person.plannedAt ?? c.nextSendAt ?? new Date();

  // Who they are: the contact (made when new) and the sheet's columns, for the variables.
  const contact = await contactByPhone(db, c.accountId, person.phone);
  const settle = async (
    tx: Db,
    o: {
      status: 'sent' | 'error' | 'skipped';
      failure: string | null;
      conversationId?: string;
      messageId?: string;
    },
  ) => {
    const sentAt = new Date();
    const { settled, waiting } = await rows.settle(tx, person, {
      ...o,
      sentAt,
      contactId: contact.id,
      conversationId: o.conversationId ?? null,
      messageId: o.messageId ?? null,
    });
    if (!settled) return null;
    const interval = intervalMs(services, c);
    // An ignored contact cost WhatsApp nothing: the next person is due at this one's time.
    const next =
      o.status === 'skipped'
        ? plannedAt
        : new Date(
            Math.max(plannedAt.getTime() + interval + jitterMs(interval), sentAt.getTime() + interval),
          );
    const row = await rows.advance(tx, c.id, {
      sent: o.status === 'sent' ? 1 : 0,
      failed: o.status === 'error' ? 1 : 0,
      sentAt: o.status === 'skipped' ? null : sentAt,
      nextSendAt: waiting ? next : null,
      finished: waiting === 0,
    });
    if (row && waiting) await queueCampaignRun(services, row, { tx });
    return row;
  };
  const settleNow = (o: Parameters<typeof settle>[1]) => db.transaction((tx) => settle(tx as Db, o));

  if (contact.ignore)
    return announce(
      services,
      await settleNow({ status: 'skipped', failure: campaignMessages.campaignContactIgnored }),
    );

  try {
    const found = await services.channels.adapter(chip).checkPhone(chip, person.phone);
    if (!found.exists)
      return announce(
        services,
        await settleNow({ status: 'error', failure: campaignMessages.campaignNoWhatsapp }),
      );
    const { conversation, created } = await openTeamConversation(db, chip, contact.id, chip.departmentId);
    if (created) {
      const view = await loadConversation(db, conversation.id);
      if (view)
        services.realtime.toConversation(c.accountId, view.department, {
          type: 'new_conversation',
          message: view,
        });
    }
    if (c.messageType === 'flow') {
      let row: CampaignRow | null = null;
      // Marked sent in the start's transaction: a retry after a crash finds the person sent, never a second run.
      await startFlowRun(services, conversation.id, c.flowId ?? '', async (tx) => {
        row = await settle(tx, { status: 'sent', failure: null, conversationId: conversation.id });
        // Settled meanwhile by another run (whose lease this one outlived): this start rolls back.
        if (!row) throw new Error('campaign person already settled');
      });
      return announce(services, row);
    }
    const version = c.versions[person.version] ?? c.versions[0] ?? '';
    // The sheet's name for this send, else the contact's (the filler reads its variable 'nome' when empty).
    const name = person.data.nome?.trim() || contact.overrideName || contact.name;
    const text = fillVariables(version, {
      name,
      phone: contact.phone,
      tags: contact.tags,
      data: { ...contact.data, ...person.data },
    });
    // The job acts as the system of the campaign's account; the message is attributed to its creator.
    const message = await sendConversationMessage(
      { services, actor: systemActor(c.accountId, 'campaigns') },
      { ...creator.user, campaign: true },
      { conversation_id: conversation.id, message_id: campaignMessageId(c.id, person.seq), text },
    );
    if (message.status === MESSAGE_STATUS.pending) {
      // Its send was cut off by a crash and is being resumed by the send path: the person stays claimed and
      // the outcome is read again shortly.
      const released = await rows.release(db, c.id);
      if (released)
        await queueCampaignRun(services, released, {
          at: new Date(Date.now() + PENDING_RETRY_MS),
          reason: 'pending',
        });
      return;
    }
    const ok = message.status >= MESSAGE_STATUS.sent;
    return announce(
      services,
      await settleNow({
        status: ok ? 'sent' : 'error',
        failure: ok ? null : (message.failure ?? texts.providerFailed),
        conversationId: conversation.id,
        messageId: message._id,
      }),
    );
  } catch (err) {
    if (err instanceof ChannelError) {
      // The chip went away mid-step: the person stays claimed and is re-driven (deduped) when it is back.
      return announce(services, await rows.release(db, c.id, { paused: true }));
    }
    if (err instanceof AppError)
      return announce(services, await settleNow({ status: 'error', failure: err.message }));
    throw err;
  }
}

/**
 * When the chip's pace lets this campaign send, if not now. Every campaign on one chip shares one pace, the
 * slowest interval among its running campaigns (two campaigns paced apart would send twice as fast as either
 * says, which is how numbers get banned): the chip's last campaign send plus that interval, and no send while
 * another campaign of the chip has one in flight. Called under the chip's lock (rows.chipPace).
 */
async function chipWait(services: Services, tx: Db, c: CampaignRow): Promise<Date | null> {
  const pace = await rows.chipPace(tx, c.chipId, c.id);
  const interval = Math.max(intervalMs(services, c), intervalMs(services, pace));
  const now = Date.now();
  if (pace.inFlight) return new Date(now + interval);
  const free = (pace.lastSentAt?.getTime() ?? 0) + interval;
  return free > now ? new Date(free) : null;
}

/**
 * A chip's status changed (channels/index.ts): its running campaigns pause when it disconnects, and go on at
 * once when it connects again (their next send is due at its plan, or now if that has passed).
 */
export async function chipStatusChanged(services: Services, chipId: string, status: string) {
  const changed = await rows.setPaused(services.db, chipId, status !== 'open');
  for (const c of changed) {
    const at = new Date(Math.max(c.nextSendAt?.getTime() ?? 0, Date.now()));
    // Official campaigns have their own job (./official-campaigns.ts) and their own event.
    if (c.official) {
      if (status === 'open') await queueOfficialCampaignRun(services, c, { at, reason: 'resume' });
      services.realtime.toAccount(c.accountId, { type: 'official_campaign_updated', message: { _id: c.id } });
      continue;
    }
    if (status === 'open') await queueCampaignRun(services, c, { at, reason: 'resume' });
    await announce(services, c);
  }
}

/** Queues a run for every campaign a crash or a missed event may have left without one (safe to repeat). */
export async function sweepCampaigns(services: Services) {
  const now = new Date();
  for (const c of await rows.needingRun(services.db)) {
    const opts = { at: now, reason: `sweep-${Math.floor(now.getTime() / 60_000)}` };
    if (c.official) await queueOfficialCampaignRun(services, c, opts);
    else await queueCampaignRun(services, c, opts);
  }
}

export const campaignRunJob: JobKind<CampaignJob> = {
  name: CAMPAIGN_JOB,
  run: (data, services) => runCampaign(services, data.id),
  // Each campaign has at most one step due at a time; several campaigns run side by side.
  pollSeconds: 0.5,
  batchSize: 10,
  concurrency: 10,
  expireInSeconds: 120,
  retryLimit: 20,
  retryDelaySeconds: 5,
};

export const campaignSweepJob: JobKind = {
  name: 'campaign-sweep',
  every: '* * * * *',
  atStart: true,
  // The next sweep comes anyway.
  retryLimit: 0,
  run: (_data, services) => sweepCampaigns(services),
};
