// Data some e2e files need before their server starts (there is no call yet to create chips or
// conversations). A seed writes into the fresh DATA_DIR through the server's own database code; the server
// then starts on that directory and finds the demo already there.

import { eq } from 'drizzle-orm';
import { openDatabase } from '@/server/db';
import { chips, contacts, conversations, messages, subscriptions, tags } from '@/server/db/schema';
import { seedDemo } from '@/server/seed/demo';
import { newId } from '@/shared/ids';

type Db = Awaited<ReturnType<typeof openDatabase>>['db'];

export const seeds = {
  /** The demo alone, on a server of its own: files that sign in as demo users are not disturbed by files
   * that change their passwords. */
  demo: async (db: Db) => {
    await seedDemo(db);
  },
  /**
   * A busy day at Loja Demo: six chips (two not connected) and more than nine open human conversations.
   * Suporte: 11 open human (+1 finished, +1 chatbot); Vendas: 3 open human.
   */
  'busy-account': async (db: Db) => {
    const { accountId, departments } = await seedDemo(db);
    let order = 0;
    // Distinct creation times: the server lists chips in creation order.
    const chip = (name: string, status: 'open' | 'close' | 'connecting', departmentId: string) => ({
      id: newId(),
      accountId,
      name,
      status,
      departmentId,
      createdAt: new Date(Date.UTC(2026, 0, 1, 12, order++)),
    });
    const rows = [
      chip('Suporte 1', 'open', departments.support),
      chip('Suporte 2', 'open', departments.support),
      chip('Vendas 1', 'open', departments.sales),
      chip('Vendas 2', 'close', departments.sales),
      chip('Suporte 3', 'open', departments.support),
      chip('Vendas 3', 'connecting', departments.sales),
    ];
    await db.insert(chips).values(rows);
    const chipId = rows[0]?.id as string;
    const people: (typeof contacts.$inferInsert)[] = [];
    const conversation = (departmentId: string, extra: Partial<typeof conversations.$inferInsert> = {}) => {
      const contact = { id: newId(), accountId, phone: `55119${String(people.length).padStart(8, '0')}` };
      people.push(contact);
      return {
        id: newId(),
        accountId,
        chipId,
        contactId: contact.id,
        departmentId,
        isManual: true,
        ...extra,
      };
    };
    const conversationRows = [
      ...Array.from({ length: 11 }, () => conversation(departments.support)),
      ...Array.from({ length: 3 }, () => conversation(departments.sales)),
      conversation(departments.support, { finishedAt: new Date() }),
      conversation(departments.support, { isManual: false, chatbotType: 'chatbot' }),
    ];
    await db.insert(contacts).values(people);
    await db.insert(conversations).values(conversationRows);
  },
  /** Loja Demo's subscription is past due, with an invoice to pay. */
  'past-due': async (db: Db) => {
    const { accountId } = await seedDemo(db);
    await db
      .update(subscriptions)
      .set({
        lastStatus: 'pastdue',
        invoices: [{ cycle: 3, status: 'pending', payment_url: 'https://pagamentos.example.com/fatura/3' }],
      })
      .where(eq(subscriptions.accountId, accountId));
  },
  /**
   * The dashboards' history (spec 3 §2.1, §2.2): Loja Demo with two connected chips (Suporte, Vendas) and 1 to
   * 4 conversations a day over the last 120 days, a third human, a third of the contacts tagged, each with a customer
   * message, a chatbot's answer and, when human, an attendant's; the 5 newest still open.
   */
  'dashboard-history': async (db: Db) => {
    const { accountId, departments } = await seedDemo(db);
    const chip = (name: string, departmentId: string) => ({
      id: newId(),
      accountId,
      name,
      status: 'open' as const,
      departmentId,
    });
    const chipRows = [chip('Loja Suporte', departments.support), chip('Loja Vendas', departments.sales)];
    await db.insert(chips).values(chipRows);
    const tagRows = [
      { id: newId(), accountId, name: 'Cliente VIP', color: '#e64980' },
      { id: newId(), accountId, name: 'Primeira compra', color: '#228be6' },
    ];
    await db.insert(tags).values(tagRows);
    const now = Date.now();
    const people: (typeof contacts.$inferInsert)[] = [];
    const rows: (typeof conversations.$inferInsert)[] = [];
    const texts: (typeof messages.$inferInsert)[] = [];
    // 1 to 4 conversations a day, a few hours apart: i counts them from the newest.
    const times: number[] = [];
    for (let day = 0; day < 120; day++)
      for (let k = 0; k < 1 + ((day * 7 + 3) % 4); k++)
        times.push(now - day * 86_400_000 - k * 2 * 3_600_000);
    for (const [i, time] of times.entries()) {
      const at = new Date(time);
      const onSales = i % 3 === 1;
      const human = i % 4 !== 1 && i % 3 === 0;
      const contact = {
        id: newId(),
        accountId,
        phone: `5511970${String(i).padStart(6, '0')}`,
        name: `Cliente ${i + 1}`,
        overrideName: i % 4 === 0 ? `Apelido ${i + 1}` : null,
        tags: i % 3 === 2 ? [tagRows[i % 2]?.id as string] : [],
      };
      people.push(contact);
      const id = newId();
      const chipRow = chipRows[onSales ? 1 : 0] as (typeof chipRows)[number];
      rows.push({
        id,
        accountId,
        chipId: chipRow.id,
        contactId: contact.id,
        departmentId: chipRow.departmentId,
        isManual: human,
        chatbotType: human ? null : i % 2 ? 'chatbot' : 'flow_chatbot',
        waitingResponse: i < 5 && i % 2 === 0,
        finishedAt: i < 5 ? null : new Date(at.getTime() + 3_600_000),
        createdAt: at,
      });
      const message = (origin: 'customer' | 'chatbot' | 'user', minutes: number) => ({
        id: newId(),
        accountId,
        conversationId: id,
        chipId: chipRow.id,
        origin,
        type: 'text' as const,
        message: origin,
        createdAt: new Date(at.getTime() + minutes * 60_000),
      });
      texts.push(message('customer', 0), message('chatbot', 1));
      if (human) texts.push(message('user', 5));
    }
    await db.insert(contacts).values(people);
    await db.insert(conversations).values(rows);
    await db.insert(messages).values(texts);
  },
} satisfies Record<string, (db: Db) => Promise<void>>;

export type SeedName = keyof typeof seeds;

export async function runSeed(name: SeedName, dataDir: string) {
  const database = await openDatabase({ dataDir });
  try {
    await seeds[name](database.db);
  } finally {
    await database.close();
  }
}
