// Phone numbers as the product stores them: digits with the country code, no '+' (E.164 digits).
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { DEFAULT_COUNTRY_CODE } from './constants';

/**
 * Normalises a number typed by a person or given by a provider; null when it is not a valid number.
 * Without a country code, Brazil's (55) is assumed. Brazilian mobiles are stored with the ninth digit:
 * WhatsApp still reports older accounts without it (55 11 8765-4321), and one person must be one contact.
 */
export function normalizePhone(
  raw: string,
  defaultCountryCode: string = DEFAULT_COUNTRY_CODE,
): string | null {
  const digits = raw.replace(/\D/g, '');
  if (digits.length < 8 || digits.length > 15) return null;
  const international = raw.trim().startsWith('+') || digits.length > 11;
  let parsed = parsePhoneNumberFromString(international ? `+${digits}` : `+${defaultCountryCode}${digits}`);
  // 11 digits or fewer may still carry a country code (1 NXX…); try that reading when the first fails.
  if (!parsed?.isValid() && !international) parsed = parsePhoneNumberFromString(`+${digits}`);
  if (!parsed) return null;
  let national = String(parsed.nationalNumber);
  if (parsed.countryCallingCode === '55' && national.length === 10 && /^[6-9]/.test(national.slice(2))) {
    national = `${national.slice(0, 2)}9${national.slice(2)}`;
  }
  const normalized = `${parsed.countryCallingCode}${national}`;
  const check = parsePhoneNumberFromString(`+${normalized}`);
  return check?.isValid() ? normalized : null;
}
