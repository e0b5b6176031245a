// What an official template's sender shows of it: its header, body and footer, and its quick-reply buttons
// with the flow each tap starts (the official campaign dialog, the webhook screen).
import type { TemplatePayload } from '@/shared/contract/campaigns';

/** The template's quick-reply buttons, each with the flow its tap starts (kept from `previous` by text). */
export function payloadsFor(
  components: readonly Record<string, unknown>[],
  previous: readonly TemplatePayload[] = [],
): TemplatePayload[] {
  const buttons = components.find((c) => String(c.type ?? '').toUpperCase() === 'BUTTONS');
  const list = Array.isArray(buttons?.buttons) ? (buttons.buttons as Record<string, unknown>[]) : [];
  return list
    .filter((b) => String(b.type ?? '').toUpperCase() === 'QUICK_REPLY')
    .map((b) => {
      const text = String(b.text ?? '');
      const before = previous.find((p) => p.button === text);
      return { type: 'button' as const, button: text, tip: '', payload: before?.payload ?? null };
    });
}

/** The header and body texts of a template, for its preview. */
export function templatePreview(components: readonly Record<string, unknown>[]) {
  const text = (type: string) => {
    const c = components.find((x) => String(x.type ?? '').toUpperCase() === type);
    return typeof c?.text === 'string' ? c.text : '';
  };
  return { header: text('HEADER'), body: text('BODY'), footer: text('FOOTER') };
}
