// Digital Manager Guru's webhooks (README, 'Billing webhook'). Guru posts JSON for transactions
// (webhook_type 'transaction': id, status, contact, payment.total in reais, product.offer.id, subscription
// {id, charged_times}, invoice, dates) and for subscriptions (webhook_type 'subscription': id, last_status,
// last_status_at, subscriber, product.offer.id, current_invoice {cycle, status, payment_url}, charged_times),
// each carrying the account's api_token. The official reference was not reachable from here: the field names
// are the ones public integrations read. Each event is one ledger row (billing_events), keyed so a replay
// finds its row and changes nothing; its effects on the account happen in the same transaction.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SubscriptionStatus } from '../../../shared/constants';
import { newId } from '../../../shared/ids';
import { billingMessages as M } from '../../../shared/messages-billing';
import { type PlatformJob, systemActor } from '../../access';
import type { Db } from '../../db';
import { queueMail } from '../../jobs/mail';
import type { Services } from '../../services';
import { accountsRepo } from '../accounts/accounts.repo';
import { createAccount } from '../accounts/accounts.service';
import { authRepo } from '../auth/auth.repo';
import { hashPassword } from '../auth/passwords';
import { hashToken, newToken } from '../auth/tokens';
import { billingRepo, type DayTotals, type EventFields } from './billing.repo';
import { localDay } from './financial';

/** How long the welcome mail's link to create a password lasts. */
export const WELCOME_LINK_DAYS = 7;
/** The invoices kept per subscription (the past-due dialog reads the latest with a payment link). */
const INVOICES_KEPT = 12;

export type EventKind = 'sale' | 'refund' | 'cancel' | 'status' | 'ignored' | 'rejected';

export interface GuruEvent {
  key: string;
  webhookType: 'transaction' | 'subscription';
  status: string;
  /** The transaction's or the subscription's id at Guru. */
  guruId: string;
  subscriptionId: string | null;
  offerId: string;
  email: string;
  name: string;
  amountCents: number;
  cycle: number;
  occurredAt: Date;
  invoice: { cycle: number; status: string; payment_url: string | null } | null;
}

/** Compares the given token with the configured one in constant time (hashes first: any lengths). */
export function tokenMatches(given: unknown, expected: string) {
  if (typeof given !== 'string' || !given) return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');
const num = (v: unknown) => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? n : null;
};

/** Reais (197, 358.8, '49.90') → integer cents; never negative. */
export const toCents = (v: unknown) => Math.max(0, Math.round((num(v) ?? 0) * 100));

/** Guru sends ISO strings or Unix seconds; anything else is 'now'. */
function toDate(v: unknown, now: Date): Date {
  const n = num(v);
  if (n !== null && typeof v === 'number') return new Date(n < 1e12 ? n * 1000 : n);
  const s = str(v);
  if (s) {
    const t = Date.parse(s);
    if (Number.isFinite(t)) return new Date(t);
  }
  return now;
}

function invoiceOf(v: unknown, fallbackCycle: number): GuruEvent['invoice'] {
  const i = obj(v);
  if (!Object.keys(i).length) return null;
  return {
    cycle: Math.max(1, Math.trunc(num(i.cycle) ?? fallbackCycle)),
    status: str(i.status) || 'unknown',
    payment_url: str(i.payment_url) || null,
  };
}

/** Reads Guru's payload; answers a pt-BR message for what cannot be read. */
export function parseGuruEvent(data: unknown, now: Date): { event: GuruEvent } | { error: string } {
  const d = obj(data);
  const type = str(d.webhook_type);
  const guruId = str(d.id);
  const product = obj(d.product);
  const offerId = str(obj(product.offer).id) || str(obj(d.offer).id);
  if (type === 'transaction') {
    const status = str(d.status).toLowerCase();
    if (!guruId) return { error: M.webhookIdMissing };
    if (!status) return { error: M.webhookStatusMissing };
    const contact = obj(d.contact);
    const sub = obj(d.subscription);
    const rawInvoice = obj(d.invoice);
    const cycle = Math.max(1, Math.trunc(num(sub.charged_times) ?? num(rawInvoice.cycle) ?? 1));
    const dates = obj(d.dates);
    return {
      event: {
        key: `transaction:${guruId}:${status}`,
        webhookType: 'transaction',
        status,
        guruId,
        subscriptionId: str(sub.id) || str(sub.subscription_code) || null,
        offerId,
        email: str(contact.email).toLowerCase(),
        name: str(contact.name),
        amountCents: toCents(obj(d.payment).total),
        cycle,
        occurredAt: toDate(dates.confirmed_at ?? dates.created_at ?? dates.ordered_at, now),
        invoice: invoiceOf(d.invoice, cycle),
      },
    };
  }
  if (type === 'subscription') {
    const status = str(d.last_status).toLowerCase();
    if (!guruId) return { error: M.webhookIdMissing };
    if (!status) return { error: M.webhookStatusMissing };
    const subscriber = obj(d.subscriber);
    const contact = obj(d.contact);
    const dates = obj(d.dates);
    const cycle = Math.max(1, Math.trunc(num(d.charged_times) ?? num(obj(d.current_invoice).cycle) ?? 1));
    const when = d.last_status_at ?? dates.last_status_at;
    return {
      event: {
        // One status change is one event: the same status at another moment (a second pastdue) is new.
        key: `subscription:${guruId}:${status}:${str(when) || str(obj(d.current_invoice).id)}`,
        webhookType: 'subscription',
        status,
        guruId,
        subscriptionId: guruId,
        offerId,
        email: (str(subscriber.email) || str(contact.email)).toLowerCase(),
        name: str(subscriber.name) || str(contact.name),
        amountCents: 0,
        cycle,
        occurredAt: toDate(when ?? (status === 'canceled' ? dates.canceled_at : undefined), now),
        invoice: invoiceOf(d.current_invoice, cycle),
      },
    };
  }
  return { error: M.webhookTypeUnknown };
}

/** What an event does to the account: a sale or an active subscription renews it; the rest change status. */
function effectOf(e: GuruEvent): {
  kind: EventKind;
  accountStatus: 'active' | 'pastdue' | 'canceled' | null;
} {
  if (e.webhookType === 'transaction') {
    if (e.status === 'approved' || e.status === 'paid') return { kind: 'sale', accountStatus: 'active' };
    if (e.status === 'refunded' || e.status === 'chargedback')
      return { kind: 'refund', accountStatus: 'canceled' };
    return { kind: 'ignored', accountStatus: null };
  }
  if (['active', 'started', 'trial'].includes(e.status)) return { kind: 'status', accountStatus: 'active' };
  if (e.status === 'pastdue') return { kind: 'status', accountStatus: 'pastdue' };
  if (['canceled', 'expired', 'inactive', 'trial canceled'].includes(e.status))
    return { kind: 'cancel', accountStatus: 'canceled' };
  return { kind: 'ignored', accountStatus: null };
}

/** The label stored for get-guru-subscription: Guru's own for subscriptions, active/canceled for payments. */
function lastStatusOf(e: GuruEvent, accountStatus: 'active' | 'pastdue' | 'canceled'): SubscriptionStatus {
  const labels: readonly string[] = [
    'active',
    'canceled',
    'expired',
    'inactive',
    'pastdue',
    'started',
    'trial',
    'trial canceled',
  ];
  if (e.webhookType === 'subscription' && labels.includes(e.status)) return e.status as SubscriptionStatus;
  return accountStatus;
}

export type ReceiveResult =
  | { outcome: 'duplicate'; id: string | null }
  | { outcome: 'rejected'; id: string; message: string }
  | { outcome: 'applied'; id: string; kind: EventKind; accountId: string | null; created: boolean };

/** The webhook acts as the platform keeping the ledger (a PlatformJob); on an account, as its system. */
const onAccount = (accountId: string) => systemActor(accountId, 'guru-billing');

/**
 * Stores the event and applies it, in one transaction. The row is claimed first (insert, or take back a
 * rejected row of the same key): a replay, even a concurrent one, waits on the key and then finds it taken.
 */
export async function receiveGuruEvent(
  services: Services,
  job: PlatformJob,
  e: GuruEvent,
  payload: unknown,
): Promise<ReceiveResult> {
  const welcome: { email: string; name: string; token: string }[] = [];
  const result = await services.db.transaction(async (tx): Promise<ReceiveResult> => {
    const db = tx as unknown as Db;
    const claimed = await billingRepo.claimEvent(db, job, { ...e, payload: payload as object });
    if (!claimed) return { outcome: 'duplicate', id: await billingRepo.eventIdByKey(db, job, e.key) };
    const record = (set: EventFields) =>
      billingRepo.recordEvent(db, job, claimed.id, {
        guruSubscriptionId: e.subscriptionId,
        guruOfferId: e.offerId || null,
        email: e.email || null,
        ...set,
      });
    const reject = async (message: string): Promise<ReceiveResult> => {
      await record({ kind: 'rejected', error: message });
      return { outcome: 'rejected', id: claimed.id, message };
    };

    const { kind, accountStatus } = effectOf(e);
    const money = kind === 'sale' || kind === 'refund' ? e.amountCents : 0;
    const saleType = kind === 'sale' ? (e.cycle <= 1 ? 'new' : 'old') : null;
    const known = e.subscriptionId ? await billingRepo.subscription(db, job, e.subscriptionId) : null;
    const ownerAccount = async () => {
      if (known) return known.accountId;
      if (!e.email) return null;
      return billingRepo.accountOfOwner(db, job, e.email);
    };

    if (!accountStatus) {
      await record({ kind, amountCents: 0, cycle: e.cycle });
      return { outcome: 'applied', id: claimed.id, kind, accountId: null, created: false };
    }

    let accountId: string | null;
    let created = false;
    let offerRowId: string | null = known?.offerId ?? null;
    if (accountStatus === 'active') {
      // A sale or an active subscription: the offer must be known, before anything changes.
      const offer = e.offerId
        ? await billingRepo.offerFor(db, job, { guruOfferId: e.offerId })
        : known?.offerId
          ? await billingRepo.offerFor(db, job, { id: known.offerId })
          : null;
      if (!offer) return reject(M.unknownOffer(e.offerId));
      offerRowId = offer.id;
      accountId = await ownerAccount();
      const limits = {
        maxChannels: offer.maxChannels,
        maxOfficialChannels: offer.maxOfficialChannels,
        maxUsers: offer.maxUsers,
        maxFlows: offer.maxFlows,
        maxSummaries: offer.maxSummaries,
        maxFollowUps: offer.maxFollowUps,
        campaignsEnabled: offer.campaignsEnabled,
        planId: offer.offerId || offer.id,
        subscriptionStatus: 'active',
      };
      if (accountId) {
        await accountsRepo.update(db, onAccount(accountId), limits);
      } else {
        if (!e.email) return reject(M.webhookEmailMissing);
        const name = e.name || e.email;
        const made = await createAccount(db, {
          account: { name, ...limits },
          // A random password nobody knows: the welcome mail's link sets the real one.
          owner: {
            name,
            email: e.email,
            passwordHash: await hashPassword(randomBytes(24).toString('base64url')),
          },
          subscriptionStatus: lastStatusOf(e, 'active'),
        });
        accountId = made.accountId;
        created = true;
        const token = newToken();
        await authRepo.insertPasswordReset(db, {
          id: newId(),
          tokenHash: hashToken(token),
          userId: made.ownerId,
          expiresAt: new Date(Date.now() + WELCOME_LINK_DAYS * 86_400_000),
        });
        welcome.push({ email: e.email, name, token });
      }
    } else {
      accountId = await ownerAccount();
      if (!accountId && kind !== 'refund') return reject(M.unknownSubscription(e.subscriptionId ?? e.guruId));
      if (accountId)
        await accountsRepo.update(db, onAccount(accountId), { subscriptionStatus: accountStatus });
    }

    if (accountId) {
      await saveSubscriptionStatus(db, accountId, lastStatusOf(e, accountStatus), e.invoice);
      if (e.subscriptionId) {
        await billingRepo.saveSubscription(db, job, {
          guruSubscriptionId: e.subscriptionId,
          accountId,
          offerId: offerRowId,
          status: accountStatus,
          startedAt: e.occurredAt,
          canceledAt: accountStatus === 'canceled' ? e.occurredAt : null,
        });
      }
    }
    await record({ kind, saleType, cycle: e.cycle, amountCents: money, accountId });
    await addToDay(db, job, kind, saleType, money, e.occurredAt);
    return { outcome: 'applied', id: claimed.id, kind, accountId, created };
  });
  // Committed: the buyer is told how to get in (the mail waits out an SMTP outage; 'Esqueci minha senha'
  // works too).
  for (const w of welcome) {
    const link = `${services.config.publicUrl}/redefinir-senha?token=${w.token}`;
    await queueMail(services, { to: w.email, subject: M.welcomeSubject, text: M.welcomeText(w.name, link) });
  }
  return result;
}

/** The event into its local day's totals (billing_days), in the event's transaction. */
async function addToDay(
  db: Db,
  job: PlatformJob,
  kind: EventKind,
  saleType: string | null,
  cents: number,
  at: Date,
) {
  const add: DayTotals | null =
    kind === 'sale' && saleType === 'new'
      ? { newCount: 1, newCents: cents }
      : kind === 'sale'
        ? { oldCount: 1, oldCents: cents }
        : kind === 'refund'
          ? { refundCount: 1, refundCents: cents }
          : kind === 'cancel'
            ? { cancelCount: 1 }
            : null;
  if (add) await billingRepo.addToDay(db, job, localDay(at), add);
}

/** get-guru-subscription's row: the status label and the latest invoices (one per cycle). */
async function saveSubscriptionStatus(
  db: Db,
  accountId: string,
  lastStatus: SubscriptionStatus,
  invoice: GuruEvent['invoice'],
) {
  const account = onAccount(accountId);
  const row = await accountsRepo.subscription(db, account);
  const invoices = (row?.invoices ?? []).filter((i) => !invoice || i.cycle !== invoice.cycle);
  if (invoice) invoices.push(invoice);
  invoices.sort((a, b) => b.cycle - a.cycle);
  await accountsRepo.saveSubscription(db, account, {
    lastStatus,
    invoices: invoices.slice(0, INVOICES_KEPT),
  });
}
