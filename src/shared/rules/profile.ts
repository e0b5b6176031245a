import { messages } from '../messages';
import { normalizePhone } from '../phone';

/** The profile's phone: empty, or a whole number with its area code ('(11) 9876' is not one). */
export const profilePhoneError = (phone: string): string | null =>
  !phone.trim() || normalizePhone(phone) ? null : messages.invalidPhone;
