// First start: on an empty database, a demo account to try the product with (outside production), or
// only the platform admin with a random password printed once (production).
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { ACCESS_AREAS, SYSTEM_USER_ROLES } from '../../shared/constants';
import { newId } from '../../shared/ids';
import type { Db } from '../db';
import { accounts, departments, flows, users } from '../db/schema';
import { createAccount, newApiKey } from '../domains/accounts/accounts.service';
import { hashPassword } from '../domains/auth/passwords';

export const DEMO_PASSWORD = 'demo123';
export const DEMO_LOGINS = {
  admin: 'admin@demo.com',
  owner: 'dono@demo.com',
  manager: 'gerente@demo.com',
  attendant: 'atendente@demo.com',
  attendant2: 'atendente2@demo.com',
} as const;

async function createPlatformAdmin(db: Db, email: string, passwordHash: string) {
  return createAccount(db, {
    account: { name: 'Plataforma', maxChannels: 1, maxUsers: 1 },
    owner: {
      name: 'Administrador',
      email,
      passwordHash,
      admin: true,
      systemUserRoles: [...SYSTEM_USER_ROLES],
      accessAreas: [...ACCESS_AREAS],
    },
  });
}

/** Seeds the demo. `passwordHash` may be given to skip hashing (tests reset often). */
export async function seedDemo(db: Db, passwordHash?: string) {
  const hash = passwordHash ?? (await hashPassword(DEMO_PASSWORD));
  await createPlatformAdmin(db, DEMO_LOGINS.admin, hash);
  const { accountId } = await createAccount(db, {
    account: {
      name: 'Loja Demo',
      campaignsEnabled: true,
      maxChannels: 5,
      maxOfficialChannels: 1,
      maxUsers: 10,
      maxFlows: 10,
      apiKey: newApiKey(),
      planId: 'demo',
    },
    owner: {
      name: 'Dona da Loja',
      email: DEMO_LOGINS.owner,
      passwordHash: hash,
      accessAreas: [...ACCESS_AREAS],
    },
  });
  const support = newId();
  const sales = newId();
  await db.insert(departments).values([
    { id: support, accountId, name: 'Suporte', description: 'Dúvidas e problemas com pedidos' },
    { id: sales, accountId, name: 'Vendas', description: 'Orçamentos e novos pedidos' },
  ]);
  await db.insert(users).values([
    {
      id: newId(),
      accountId,
      name: 'Gerente da Loja',
      email: DEMO_LOGINS.manager,
      passwordHash: hash,
      userRole: 'manager',
      accessAreas: [...ACCESS_AREAS],
    },
    {
      id: newId(),
      accountId,
      name: 'Ana Atendente',
      email: DEMO_LOGINS.attendant,
      passwordHash: hash,
      userRole: 'user',
      accessAreas: ['contacts'],
      departments: [support],
    },
    {
      id: newId(),
      accountId,
      name: 'Bruno Atendente',
      email: DEMO_LOGINS.attendant2,
      passwordHash: hash,
      userRole: 'user',
      accessAreas: ['contacts'],
      departments: [sales],
    },
  ]);
  await db.insert(flows).values({ id: newId(), accountId, ...welcomeFlow(support, sales) });
  return { accountId, departments: { support, sales } };
}

/**
 * A small flow to try the editor with: a greeting, a menu of two departments, each sending the customer to
 * a person there. No chip uses it until someone chooses it as a chip's first service.
 */
export function welcomeFlow(support: string, sales: string) {
  const node = (id: string, type: string, x: number, y: number, data: Record<string, unknown>) => ({
    id,
    type,
    position: { x, y },
    data,
  });
  return {
    name: 'Boas-vindas',
    nodes: [
      node('start', 'start', 0, 0, {}),
      node('hello', 'message', 0, 120, {
        kind: 'text',
        text: 'Olá, {nome:first}! Bem-vindo(a) à Loja Demo.',
        typing_seconds: 1,
      }),
      node('menu', 'buttons', 0, 260, {
        text: 'Como podemos ajudar?',
        options: [
          { id: 'opt_support', title: 'Suporte' },
          { id: 'opt_sales', title: 'Comprar' },
        ],
      }),
      node('to_support', 'redirect', -180, 440, { to: 'human', value: support }),
      node('to_sales', 'redirect', 180, 440, { to: 'human', value: sales }),
    ] as (typeof flows.$inferInsert)['nodes'],
    connections: [
      { id: 'e_start', source: 'start', sourceHandle: 'next', target: 'hello' },
      { id: 'e_hello', source: 'hello', sourceHandle: 'next', target: 'menu' },
      { id: 'e_support', source: 'menu', sourceHandle: 'opt_support', target: 'to_support' },
      { id: 'e_sales', source: 'menu', sourceHandle: 'opt_sales', target: 'to_sales' },
    ],
  };
}

/** Runs once, on an empty database; answers the lines to print, or null when nothing was created. */
export async function firstStart(
  db: Db,
  opts: { production: boolean; seedDemo: boolean; adminEmail: string },
): Promise<string[] | null> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(accounts);
  if ((row?.n ?? 0) > 0) return null;
  if (opts.production) {
    const password = randomBytes(12).toString('base64url');
    await createPlatformAdmin(db, opts.adminEmail, await hashPassword(password));
    return [
      'Primeiro início (produção): administrador criado. Guarde esta senha, ela não será mostrada de novo.',
      `  ${opts.adminEmail} / ${password}`,
    ];
  }
  if (!opts.seedDemo) return null;
  await seedDemo(db);
  return [
    `Conta de demonstração "Loja Demo" criada. Senha de todos: ${DEMO_PASSWORD}`,
    `  ${DEMO_LOGINS.admin.padEnd(22)} administrador da plataforma (todas as funções de sistema)`,
    `  ${DEMO_LOGINS.owner.padEnd(22)} proprietário(a)`,
    `  ${DEMO_LOGINS.manager.padEnd(22)} gerente`,
    `  ${DEMO_LOGINS.attendant.padEnd(22)} atendente (Suporte)`,
    `  ${DEMO_LOGINS.attendant2.padEnd(22)} atendente (Vendas)`,
  ];
}
