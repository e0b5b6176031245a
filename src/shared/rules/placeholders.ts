// The placeholders of the business's texts ({nome}, {nome:first}, {key}): one filler for flows, campaigns,
// chatbots and scheduled texts. A name may reach a contact as its name (WhatsApp's profile, the team's typing)
// or only as its variable 'nome' (a webhook's or a sheet's mapping): both read the same.

/** The contact as placeholders read it: the name shown for it, and its variables. */
export interface PlaceholderContact {
  name: string;
  data: Readonly<Record<string, unknown>>;
}

const PLACEHOLDER = /\{([A-Za-z0-9_]{1,64})(:first)?\}/g;

const asText = (v: unknown) =>
  v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);

/** {key} for the contact: {nome} is its name, else its variable 'nome'; any other key its variable. */
export function placeholderValue(contact: PlaceholderContact, key: string): string {
  const variable = asText(contact.data[key]);
  return key === 'nome' ? contact.name.trim() || variable.trim() : variable;
}

/**
 * Fills every placeholder of `text` for the contact; {key:first} is the value's first word. A placeholder
 * without a value (or no contact at all) reads `missing` (the customer never sees a raw '{key}'); `shape`
 * rewrites each value (a chatbot's prompt keeps it on one line).
 */
export function fillPlaceholders(
  text: string,
  contact: PlaceholderContact | null,
  opts: { missing?: string; shape?: (value: string) => string } = {},
): string {
  return text.replace(PLACEHOLDER, (_all, key: string, first?: string) => {
    const raw = contact ? placeholderValue(contact, key) : '';
    const value = first ? (raw.trim().split(/\s+/)[0] ?? '') : raw;
    return (opts.shape ? opts.shape(value) : value) || (opts.missing ?? '');
  });
}
