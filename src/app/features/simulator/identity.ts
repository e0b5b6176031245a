// Who the simulator page plays: a customer's number and name, remembered per link so a reload keeps them.
import { DEFAULT_COUNTRY_CODE } from '@/shared/constants';
import { normalizePhone } from '@/shared/phone';

export interface CustomerIdentity {
  /** Country calling code, digits only (55). */
  country: string;
  /** Area code and number as typed (11 98765-4321). */
  number: string;
  name: string;
  /** The number the server stores: country code and national number, digits only. */
  phone: string;
}

const storageKey = (token: string) => `simulador:${token}`;

/** The full number, or null when it is not a valid phone number. */
export function customerPhone(country: string, number: string): string | null {
  const cc = country.replace(/\D/g, '') || DEFAULT_COUNTRY_CODE;
  return normalizePhone(`+${cc}${number.replace(/\D/g, '')}`);
}

export function loadIdentity(token: string): CustomerIdentity | null {
  try {
    const raw = localStorage.getItem(storageKey(token));
    if (!raw) return null;
    const saved = JSON.parse(raw) as Partial<CustomerIdentity>;
    if (typeof saved.country !== 'string' || typeof saved.number !== 'string') return null;
    const phone = customerPhone(saved.country, saved.number);
    return phone
      ? { country: saved.country, number: saved.number, name: String(saved.name ?? ''), phone }
      : null;
  } catch {
    return null;
  }
}

export function saveIdentity(token: string, identity: CustomerIdentity) {
  try {
    localStorage.setItem(storageKey(token), JSON.stringify(identity));
  } catch {
    // Private mode or a full storage: the identity lasts until the page closes.
  }
}

const AUTO_READ_KEY = 'simulador:leitura-automatica';

/** Automatic read receipts: on unless switched off on this device. */
export const loadAutoRead = () => localStorage.getItem(AUTO_READ_KEY) !== 'off';

export function saveAutoRead(on: boolean) {
  try {
    localStorage.setItem(AUTO_READ_KEY, on ? 'on' : 'off');
  } catch {
    // The switch still works for this visit.
  }
}
