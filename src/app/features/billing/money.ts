// BRL as people in Brazil read it: integer cents from the server, 'R$ 1.234,56' on screen.
const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
const brlShort = new Intl.NumberFormat('pt-BR', {
  style: 'currency',
  currency: 'BRL',
  notation: 'compact',
  maximumFractionDigits: 1,
});

export const formatBRL = (cents: number) => brl.format(cents / 100);
/** Axis ticks: 'R$ 1,2 mil'. */
export const formatBRLShort = (cents: number) => brlShort.format(cents / 100);
/** '2026-03-20' → '20/03'; '2026-03' → '03/2026'. */
export const shortDay = (day: string) =>
  day.length === 7 ? `${day.slice(5, 7)}/${day.slice(0, 4)}` : `${day.slice(8, 10)}/${day.slice(5, 7)}`;
