// Generated ids: 28 characters of digits and capital letters (spec 3 §9), ~144 bits of randomness.
import { ID_LENGTH } from './constants';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export function newId(): string {
  const out: string[] = [];
  // Rejection sampling keeps every character equally likely (256 is not a multiple of 36).
  while (out.length < ID_LENGTH) {
    const bytes = crypto.getRandomValues(new Uint8Array(ID_LENGTH * 2));
    for (const b of bytes) {
      if (b < 252 && out.length < ID_LENGTH) out.push(ALPHABET[b % 36] as string);
    }
  }
  return out.join('');
}

export const ID_PATTERN = /^[0-9A-Z]{28}$/;
