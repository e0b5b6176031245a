// Issue 35 item 8: the Brazilian time zones with the server's clock in another zone. This file runs its server
// in Asia/Tokyo (UTC+9): nothing the server decides may depend on its own zone. For an account in
// America/Sao_Paulo (UTC-3), America/Manaus (UTC-4) and America/Noronha (UTC-2): the flow's opening hours,
// the dashboards' local day and the sheets' dates (contacts export) follow the account's zone. Scheduled
// messages, campaign schedules and the chatbots' 48 h finish are instants and durations (the browser turns the
// typed local time into an instant); the follow-up window's zone is in follow-ups.test.ts, for these zones.
process.env.TZ = 'Asia/Tokyo';

import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accounts, contacts } from '@/server/db/schema';
import { isOpen } from '@/server/domains/flows/nodes';
import { localDay } from '@/shared/rules/dashboard-interval';
import { readXlsx } from '../xlsx';
import { testServerPerFile } from './helpers';

const s = testServerPerFile();

const ZONES = [
  { zone: 'America/Sao_Paulo', offset: -3 },
  { zone: 'America/Manaus', offset: -4 },
  { zone: 'America/Noronha', offset: -2 },
] as const;

/** 02:30 UTC on Sunday 29 Nov 2026: still Saturday 28 in São Paulo and Manaus, already Sunday in Noronha. */
const INSTANT = new Date('2026-11-29T02:30:00Z');

it('the server itself runs in Tokyo here', () => {
  expect(new Date('2026-11-29T02:30:00Z').getHours()).toBe(11);
});

describe.each(ZONES)('an account in $zone (UTC$offset)', ({ zone, offset }) => {
  const local = new Date(INSTANT.getTime() + offset * 3_600_000);
  const hh = String(local.getUTCHours()).padStart(2, '0');
  const dd = String(local.getUTCDate()).padStart(2, '0');

  it("a flow's opening hours open and close at the account's local times", () => {
    // Open 08:00-18:00 on the local weekday of a moment, checked at its edges in that zone.
    const at = (utcHour: number, minute = 0) => new Date(Date.UTC(2026, 10, 23, utcHour, minute));
    const monday = { time_zone: '', days: [{ day: 1, ranges: [{ start: '08:00', end: '18:00' }] }] };
    // Monday 23 Nov 2026, 08:00 local = 08:00 - offset UTC.
    expect(isOpen(monday, zone, at(8 - offset))).toBe(true);
    expect(isOpen(monday, zone, at(8 - offset - 1, 59))).toBe(false);
    expect(isOpen(monday, zone, at(18 - offset - 1, 59))).toBe(true);
    expect(isOpen(monday, zone, at(18 - offset))).toBe(false);
  });

  it("the dashboards' local day of a moment near midnight", () => {
    expect(localDay(INSTANT, zone)).toBe(`2026-11-${dd}`);
  });

  it("the contacts sheet shows when each contact was created in the account's hours", async () => {
    await s.t.server.services.db
      .update(accounts)
      .set({ timeZone: zone })
      .where(eq(accounts.id, s.seed.accountId));
    const owner = await s.t.login('dono@demo.com');
    await s.t.call(
      'import-contacts',
      { people: [{ telefone: '5592988887777', nome: 'Rita Fuso' }], props: ['telefone', 'nome'] },
      owner,
    );
    await s.t.server.services.db
      .update(contacts)
      .set({ createdAt: INSTANT })
      .where(eq(contacts.phone, '5592988887777'));
    const file = await s.t.call('export-contacts', { query: 'Rita Fuso' }, owner);
    const rows = await readXlsx(Buffer.from(file.content_base64, 'base64'));
    const created = rows[1]?.[rows[0]?.indexOf('criado_em') ?? -1];
    expect(created).toBe(`${dd}/11/2026, ${hh}:30`);
    // The file's date is the account's day too.
    expect(file.file_name).toBe(`Contatos_${localDay(new Date(), zone)}.xlsx`);
  });
});
