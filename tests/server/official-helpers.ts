// Official campaigns in tests: an official chip on the fake Graph API, an audience, and a campaign row as
// create-or-update-official-campaign stores one (written directly: these tests are about the sending job).
import { eq } from 'drizzle-orm';
import type { Db } from '@/server/db';
import { audiencePeople, audiences, campaigns, users } from '@/server/db/schema';
import type { OfficialTemplateRef, TemplateParameter } from '@/shared/contract/campaigns';
import { newId } from '@/shared/ids';
import type { FakeGraph } from '../fakes/graph-api';
import type { TestServer } from './helpers';

export const PHONE_NUMBER_ID = '1029384756';
export const WABA = '5647382910';

export { graphEnv } from '../fakes/graph-api';

/** An approved template with a body variable and a quick reply. */
export const PROMO: OfficialTemplateRef = {
  name: 'promo_natal',
  language: 'pt_BR',
  category: 'MARKETING',
  components: [
    { type: 'BODY', text: 'Olá {{1}}, temos novidades!' },
    { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'Quero saber' }] },
  ],
};
export const PROMO_PARAMETERS: TemplateParameter[] = [
  { index: 1, par: '{{1}}', var: 'nome', fallback: 'cliente', location: 'body', type: 'text' },
];

/** Registered and connected, on PHONE_NUMBER_ID / WABA. */
export async function officialChip(t: TestServer, department: string, phoneNumberId = PHONE_NUMBER_ID) {
  const owner = await t.login('dono@demo.com');
  const admin = await t.login('admin@demo.com');
  const created = (await t.call(
    'create-or-update-chip',
    { name: 'Oficial', redirect: 'human', department, official: true },
    owner,
  )) as { _id: string };
  await t.call('admin-update-chip', { _id: created._id, phone_number_id: phoneNumberId, waba: WABA }, admin);
  await t.call('register-phone-number', { _id: created._id, register: true }, admin);
  const chip = (await t.call('connect-chip', { _id: created._id, connect: true }, owner)) as { _id: string };
  return { owner, chipId: chip._id };
}

export const phoneOf = (i: number) => `55219${String(i).padStart(8, '0')}`;

/** An audience of `n` people (phoneOf(0..n-1)), named 'Pessoa i' in its 'nome' column. */
export async function audienceOf(db: Db, accountId: string, n: number, first = 0) {
  const id = newId();
  await db
    .insert(audiences)
    .values({ id, accountId, name: 'Lista', props: ['telefone', 'nome'], peopleCount: n });
  for (let from = 0; from < n; from += 1000) {
    await db.insert(audiencePeople).values(
      Array.from({ length: Math.min(1000, n - from) }, (_, k) => ({
        audienceId: id,
        phone: phoneOf(first + from + k),
        data: { nome: `Pessoa ${first + from + k}` },
        position: from + k,
      })),
    );
  }
  return id;
}

/** The official campaign's row, due at `scheduledTo` (default now), rule on_response unless told. */
export async function insertOfficialCampaign(
  db: Db,
  o: {
    accountId: string;
    chipId: string;
    audienceId: string;
    scheduledTo?: Date;
    rule?: 'all' | 'on_response';
    department?: string;
    template?: OfficialTemplateRef;
  },
) {
  const [owner] = await db.select().from(users).where(eq(users.email, 'dono@demo.com'));
  const id = newId();
  const [row] = await db
    .insert(campaigns)
    .values({
      id,
      accountId: o.accountId,
      userId: owner?.id ?? '',
      name: 'Oficial',
      chipId: o.chipId,
      audienceType: 'audience',
      audienceId: o.audienceId,
      messageType: 'text',
      versions: [],
      intervalSeconds: 0,
      scheduledTo: o.scheduledTo ?? null,
      nextSendAt: o.scheduledTo ?? null,
      official: true,
      template: o.template ?? PROMO,
      templateParameters: PROMO_PARAMETERS,
      templatePayloads: [{ type: 'button', button: 'Quero saber', tip: '', payload: null }],
      conversationCreationRule: o.rule ?? 'on_response',
      redirect: 'human',
      departmentId: o.department ?? null,
    })
    .returning();
  if (!row) throw new Error('campaign not inserted');
  return row;
}

/** The template sends the fake took (WhatsApp would deliver them), per recipient. */
export function sendsPerPhone(graph: FakeGraph) {
  const per = new Map<string, number>();
  for (const r of graph.sent) per.set(r.to, (per.get(r.to) ?? 0) + 1);
  return per;
}
