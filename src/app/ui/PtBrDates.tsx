// The pt-BR settings of @mantine/dates (and dayjs's pt-br locale), given only around the screens' date
// pickers: the shell does not carry the dates library on every screen's first paint.
import 'dayjs/locale/pt-br';
import { DatesProvider } from '@mantine/dates';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';

dayjs.locale('pt-br');

/** Wrap every @mantine/dates picker in this: pt-BR month and day names, the week starting on Sunday. */
export function PtBrDates({ children }: { children: ReactNode }) {
  return <DatesProvider settings={{ locale: 'pt-br', firstDayOfWeek: 0 }}>{children}</DatesProvider>;
}
