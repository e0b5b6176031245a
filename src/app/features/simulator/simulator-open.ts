// simulator-open: the chip's name and whether it is online; with the QR code's pairing code it connects it.
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/app/lib/api';
import { callQuery } from '@/app/lib/query';

/** The link's token as the server issues it: 43 url-safe characters. */
export const isSimulatorToken = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);

export const simulatorOpenQuery = (token: string, pair: string | undefined) =>
  queryOptions({
    // The pairing code is not part of the key: once paired, the page drops it and keeps this answer.
    queryKey: callQuery('simulator-open', { token }).queryKey,
    queryFn: () => api('simulator-open', pair ? { token, pair } : { token }),
    staleTime: 30_000,
  });
