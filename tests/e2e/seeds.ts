// Data some e2e files need before their server starts (there is no call yet to create chips or
// conversations). A seed writes into the fresh DATA_DIR through the server's own database code; the server
// then starts on that directory and finds the demo already there.

import { eq } from 'drizzle-orm';
import { openDatabase } from '@/server/db';
import { chips, contacts, conversations, subscriptions } from '@/server/db/schema';
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
