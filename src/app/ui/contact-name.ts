// How a contact is named on every screen (Atendimento, /conversas, /contatos, the contact drawer).
import type { Contact } from '@/shared/contract/conversations';
import { formatPhone, withoutBidiControls } from '@/shared/format';

/** override_name first, then the profile name, then the formatted phone; never with bidi controls (a spoof). */
export function displayName(contact: Contact): string {
  const name =
    withoutBidiControls(contact.override_name ?? '').trim() || withoutBidiControls(contact.name).trim();
  return name || formatPhone(contact.phone);
}

/** The letters of a name, for the avatar's initials: '+55 (11) …' has none, 'Ana (VIP)' gives 'Ana VIP'. */
export function initialsOf(name: string): string | undefined {
  const letters = name
    .replace(/[^\p{L}\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return letters || undefined;
}
