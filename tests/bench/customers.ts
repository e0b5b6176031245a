// The benches' attendant's list: the demo data afresh, a simulator chip in the attendant's department (Suporte),
// and `count` customers writing one message each through it (phones from `firstPhone`, names 'Cliente 00'…).
import { connectedSimulatorChip } from '../server/channel-helpers';
import type { TestServer } from '../server/helpers';

export async function customersWrite(t: TestServer, count: number, firstPhone: number) {
  const seed = await t.reset();
  const owner = await t.login('dono@demo.com');
  const { simulatorToken } = await connectedSimulatorChip(t, owner, { department: seed.departments.support });
  for (let i = 0; i < count; i++)
    await t.call('simulator-send', {
      token: simulatorToken,
      phone: `11 9${String(firstPhone + i).padStart(8, '0')}`,
      name: `Cliente ${String(i).padStart(2, '0')}`,
      id: `bench${firstPhone}x${i}x${Date.now().toString(36)}`,
      type: 'text',
      text: `Olá, sou o cliente ${i} e quero saber do meu pedido.`,
    });
}
