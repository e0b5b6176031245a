// Digital Manager Guru as the tests speak it: the webhook bodies it posts (transactions and subscriptions)
// to POST /api/v1/billing/guru, with the account's api_token.
import type { TestServer } from './helpers';

export const GURU_TOKEN = 'guru-test-token-0123456789abcdef';

export interface Sale {
  id: string;
  email: string;
  name?: string;
  offer?: string;
  subscription: string;
  /** Reais, as Guru sends them. */
  total: number;
  cycle?: number;
  at: string;
  status?: string;
}

/** `token` null: a body without api_token. */
export const transaction = (s: Sale, token: string | null = GURU_TOKEN) => ({
  ...(token !== null && { api_token: token }),
  webhook_type: 'transaction',
  id: s.id,
  status: s.status ?? 'approved',
  contact: { name: s.name ?? 'Cliente', email: s.email, phone_number: '11999990000' },
  payment: { method: 'credit_card', total: s.total, gross: s.total, currency: 'BRL' },
  product: { id: 'prod-1', name: 'Painel', offer: { id: s.offer ?? 'off-pro', name: 'Pro' } },
  subscription: { id: s.subscription, charged_times: s.cycle ?? 1, charged_every_days: 30 },
  dates: { created_at: s.at, confirmed_at: s.at },
});

export const subscriptionEvent = (
  e: {
    id: string;
    status: string;
    at: string;
    email: string;
    offer?: string;
    paymentUrl?: string;
    cycle?: number;
  },
  token = GURU_TOKEN,
) => ({
  api_token: token,
  webhook_type: 'subscription',
  id: e.id,
  last_status: e.status,
  last_status_at: e.at,
  charged_every_days: 30,
  charged_times: e.cycle ?? 1,
  subscriber: { name: 'Cliente', email: e.email },
  product: { id: 'prod-1', name: 'Painel', offer: { id: e.offer ?? 'off-pro' } },
  current_invoice: {
    id: `inv-${e.id}-${e.cycle ?? 1}`,
    status: e.status === 'pastdue' ? 'overdue' : 'paid',
    value: 97,
    cycle: e.cycle ?? 1,
    payment_url: e.paymentUrl ?? null,
  },
});

export async function postGuru(t: TestServer, body: unknown, raw?: string) {
  const res = await fetch(`${t.url}/api/v1/billing/guru`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: raw ?? JSON.stringify(body),
  });
  return {
    status: res.status,
    body: (await res.json()) as { error: boolean; message: string; duplicate?: boolean },
  };
}

export const proOffer = {
  name: 'Plano Pro',
  offer_id: 'off-pro',
  max_channels: 4,
  max_official_channels: 2,
  max_users: 8,
  max_flows: 6,
  max_summaries: 300,
  max_follow_ups: 200,
  campaigns_enabled: true,
};
