// What an official campaign sends to one person: the template's components with the person's parameters
// (Graph's send-template shape), and the text our conversation shows for it.
import type {
  OfficialTemplateRef,
  TemplateParameter,
  TemplatePayload,
} from '../../../shared/contract/campaigns';
import type { PlaceholderContact } from '../../../shared/rules/placeholders';
import { fillPlaceholders, parameterValue } from '../../../shared/rules/template';

/** The payload of a quick-reply button: the campaign and the button, read back when the person taps it. */
export const buttonPayload = (campaignId: string, index: number) => `camp:${campaignId}:${index}`;
export function readButtonPayload(payload: string): { campaignId: string; index: number } | null {
  const m = /^camp:([0-9A-Z]{28}):(\d{1,2})$/.exec(payload);
  return m?.[1] ? { campaignId: m[1], index: Number(m[2]) } : null;
}

interface Component {
  type?: unknown;
  format?: unknown;
  text?: unknown;
  buttons?: unknown;
}

export interface TemplateSend {
  /** The components of the send request (header, body and button parameters). */
  components: Record<string, unknown>[];
  /** The header and body as the person reads them (stored as the conversation's message). */
  preview: string;
}

/**
 * The send of `template` to a person with audience columns `data`. `imageUrl` turns an image header's link
 * (our media store's path) into the public URL Meta fetches.
 */
export function officialTemplateContent(
  campaignId: string,
  template: OfficialTemplateRef,
  parameters: readonly TemplateParameter[],
  data: Readonly<Record<string, string>>,
  imageUrl: (link: string) => string,
  /** The person's contact, when known: a parameter the audience leaves empty reads its name or variable. */
  contact?: PlaceholderContact | null,
): TemplateSend {
  const comps = template.components as Component[];
  const of = (type: string) => comps.find((c) => String(c.type ?? '').toUpperCase() === type);
  const values = (location: 'header' | 'body') => {
    const map = new Map<number, string>();
    for (const p of parameters)
      if (p.location === location && p.type === 'text') map.set(p.index, parameterValue(p, data, contact));
    return map;
  };
  const textParameters = (map: Map<number, string>) =>
    [...map.entries()].sort(([a], [b]) => a - b).map(([, text]) => ({ type: 'text', text }));

  const components: Record<string, unknown>[] = [];
  const parts: string[] = [];
  const header = of('HEADER');
  if (header) {
    const format = String(header.format ?? 'TEXT').toUpperCase();
    if (format === 'IMAGE') {
      const link = parameters.find((p) => p.location === 'header' && p.type === 'image')?.link;
      if (link)
        components.push({ type: 'header', parameters: [{ type: 'image', image: { link: imageUrl(link) } }] });
    } else if (format === 'TEXT') {
      const map = values('header');
      if (map.size) components.push({ type: 'header', parameters: textParameters(map) });
      parts.push(fillPlaceholders(String(header.text ?? ''), map));
    }
  }
  const body = of('BODY');
  if (body) {
    const map = values('body');
    if (map.size) components.push({ type: 'body', parameters: textParameters(map) });
    parts.push(fillPlaceholders(String(body.text ?? ''), map));
  }
  const footer = of('FOOTER');
  if (footer?.text) parts.push(String(footer.text));
  // Each quick reply carries the campaign and its index: a tap comes back as this payload.
  const buttons = (of('BUTTONS')?.buttons ?? []) as { type?: string; text?: string }[];
  buttons.forEach((b, index) => {
    if (String(b.type ?? '').toUpperCase() !== 'QUICK_REPLY') return;
    components.push({
      type: 'button',
      sub_type: 'quick_reply',
      index: String(index),
      parameters: [{ type: 'payload', payload: buttonPayload(campaignId, index) }],
    });
  });
  return { components, preview: parts.filter(Boolean).join('\n\n') };
}

/** A template's buttons as listed (QUICK_REPLY, URL, PHONE_NUMBER…), in their order. */
export function templateButtons(components: readonly Record<string, unknown>[]) {
  const buttons = components.find((c) => String(c.type ?? '').toUpperCase() === 'BUTTONS')?.buttons;
  return (Array.isArray(buttons) ? buttons : []) as { type?: string; text?: string }[];
}

/** The flow a quick-reply tap starts: the payload of the button of that index (matched by its text). */
export function tappedButton(
  c: { template: OfficialTemplateRef | null; templatePayloads: readonly TemplatePayload[] },
  index: number,
) {
  const button = templateButtons(c.template?.components ?? [])[index];
  if (!button || String(button.type ?? '').toUpperCase() !== 'QUICK_REPLY') return null;
  const text = String(button.text ?? '');
  const entry = c.templatePayloads.find((p) => p.button === text);
  return { text, flowId: entry?.payload ?? null };
}
