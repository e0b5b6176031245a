// Templates an official number can send as they are (spec 2 §5): APPROVED, with fixed content — no
// parameters, no {{variables}}, no media header. The list comes from the chip's adapter (the Cloud API's
// "get template messages by waba id").
import type { FixedTemplate } from '../../../shared/contract/scheduled-messages';
import { messages as texts } from '../../../shared/messages';
import { ChannelError, type ChipRow, type ProviderTemplate } from '../../channels/adapter';
import { AppError } from '../../http/errors';
import type { Services } from '../../services';

const VARIABLE = /\{\{\s*[^}]*\}\}/;

/** The template's text when its content is fixed; null when it needs anything filled in. */
export function fixedContent(t: ProviderTemplate): string | null {
  if (t.status !== 'APPROVED') return null;
  let body = '';
  const parts: string[] = [];
  for (const c of t.components ?? []) {
    const type = (c.type ?? '').toUpperCase();
    if ('example' in c && c.example) return null;
    if (c.text && VARIABLE.test(c.text)) return null;
    if (type === 'HEADER') {
      if (c.format && c.format.toUpperCase() !== 'TEXT') return null;
      if (c.text) parts.push(c.text);
    } else if (type === 'BODY') {
      body = c.text ?? '';
      parts.push(body);
    } else if (type === 'FOOTER') {
      if (c.text) parts.push(c.text);
    } else if (type === 'BUTTONS') {
      if (JSON.stringify(c.buttons ?? []).match(VARIABLE)) return null;
    }
  }
  return body ? parts.join('\n\n') : null;
}

export async function usableTemplates(services: Services, chip: ChipRow): Promise<FixedTemplate[]> {
  const adapter = services.channels.adapter(chip);
  if (!chip.official || !adapter.listTemplates) return [];
  let listed: ProviderTemplate[];
  try {
    listed = await adapter.listTemplates(chip);
  } catch (err) {
    if (err instanceof ChannelError) throw new AppError(err.message);
    throw err;
  }
  const usable: FixedTemplate[] = [];
  for (const t of listed) {
    const preview = fixedContent(t);
    if (preview !== null) usable.push({ name: t.name, language: t.language, preview });
  }
  return usable;
}

export const templateRequired = () => new AppError(texts.scheduleTemplateRequired);
