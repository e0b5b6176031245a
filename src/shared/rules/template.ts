// Template text rules shared by the template dialog, the official campaign dialog and the server (spec 3 §5
// Template save, Official campaign): {{n}} placeholders found, normalised and filled.
import type { TemplateParameter } from '../contract/campaigns';
import {
  TEMPLATE_BUTTON_TEXT_MAX,
  TEMPLATE_BUTTON_VALUE_MAX,
  TEMPLATE_MAX_BUTTONS,
} from '../contract/templates';
import { messages } from '../messages';
import { templateMessages } from '../messages-campaigns';
import { type PlaceholderContact, placeholderValue } from './placeholders';

/** A {{ n }} placeholder with any inner spaces; its inside is kept as written. */
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;

/**
 * Spec 3 §5: body variables are normalised to {{n}} without inner spaces, numbered {{1}} {{2}} in the order
 * they first appear ('Oi {{ nome }}, {{nome}} e {{ 7 }}' → 'Oi {{1}}, {{1}} e {{2}}').
 */
export function normaliseTemplateText(text: string): string {
  const numbers = new Map<string, number>();
  return text.replace(PLACEHOLDER, (_m, inside: string) => {
    const key = inside.trim();
    let n = numbers.get(key);
    if (n === undefined) {
      n = numbers.size + 1;
      numbers.set(key, n);
    }
    return `{{${n}}}`;
  });
}

/** The numbers of the {{n}} placeholders of a text, de-duplicated and sorted. */
export function templateIndexes(text: string | undefined): number[] {
  const found = new Set<number>();
  for (const m of (text ?? '').matchAll(PLACEHOLDER)) {
    const n = Number(m[1]);
    if (Number.isInteger(n) && n > 0) found.add(n);
  }
  return [...found].sort((a, b) => a - b);
}

interface ComponentLike {
  type?: unknown;
  format?: unknown;
  text?: unknown;
}

const componentOf = (components: readonly ComponentLike[], type: string) =>
  components.find((c) => String(c.type ?? '').toUpperCase() === type);

/**
 * The parameters a template needs (spec 3 §5 Official campaign): one per {{n}} of the header text and of the
 * body, de-duplicated and sorted, and an image header's image. `var` and `fallback` start empty.
 */
export function templateParameters(components: readonly ComponentLike[]): TemplateParameter[] {
  const out: TemplateParameter[] = [];
  const header = componentOf(components, 'HEADER');
  const headerFormat = String(header?.format ?? 'TEXT').toUpperCase();
  if (header && headerFormat === 'IMAGE')
    out.push({
      index: 1,
      par: 'image',
      var: '',
      fallback: '',
      location: 'header',
      type: 'image',
      link: null,
    });
  if (header && headerFormat === 'TEXT')
    for (const n of templateIndexes(String(header.text ?? '')))
      out.push({ index: n, par: `{{${n}}}`, var: '', fallback: '', location: 'header', type: 'text' });
  const body = componentOf(components, 'BODY');
  for (const n of templateIndexes(String(body?.text ?? '')))
    out.push({ index: n, par: `{{${n}}}`, var: '', fallback: '', location: 'body', type: 'text' });
  return out;
}

/**
 * A parameter's value for one person: the audience column's value when present, else the contact's (its name
 * for 'nome', its variables: the placeholders' one rule), else the fallback.
 */
export function parameterValue(
  p: TemplateParameter,
  data: Readonly<Record<string, string>>,
  contact?: PlaceholderContact | null,
): string {
  const fromAudience = p.var ? (data[p.var] ?? '').trim() : '';
  const fromContact = p.var && contact ? placeholderValue(contact, p.var).trim() : '';
  return fromAudience || fromContact || p.fallback.trim();
}

/** Replaces {{n}} in a text by values[n] (left as is when missing). */
export function fillPlaceholders(text: string, values: ReadonlyMap<number, string>): string {
  return text.replace(PLACEHOLDER, (m, inside: string) => values.get(Number(inside)) ?? m);
}

// ---- Template save (spec 3 §5): the dialog 'Novo template de mensagem' and create-message-template ----------

/** Meta's sample templates every WABA starts with: listed, but not deleted here. */
export const isDefaultTemplate = (name: string) => name === 'hello_world' || name.startsWith('sample_');

/** Meta's own screens for a WABA's templates (the /templates links, opened in a new tab). */
export const metaTemplateManager = (waba: string) =>
  `https://business.facebook.com/wa/manage/message-templates/?waba_id=${encodeURIComponent(waba)}`;
export const metaTemplateLibrary = (waba: string) =>
  `https://business.facebook.com/wa/manage/template-library/?waba_id=${encodeURIComponent(waba)}`;

/** Meta's template names: lowercase letters, digits and underscores. */
export const TEMPLATE_NAME = /^[a-z0-9_]+$/;

/**
 * The Meta name of what the user typed, as a chip's name is cleaned (rules/chip.ts): accents dropped, capitals
 * lowercase, spaces and hyphens become _, anything else left out ('Confirmação Pedido' → 'confirmacao_pedido').
 */
export const templateNameOf = (typed: string) =>
  typed
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .trim()
    .replace(/[\s-]+/g, '_')
    .replace(/[^a-z0-9_]/g, '')
    .replace(/_{2,}/g, '_');

const PHONE_EXAMPLE = /^\+[1-9][0-9]{7,14}$/;
const HTTP_URL = /^https?:\/\/[^\s]+$/i;

interface ButtonLike {
  type: 'QUICK_REPLY' | 'URL' | 'PHONE_NUMBER';
  text: string;
  url?: string | undefined;
  phone_number?: string | undefined;
}

export interface TemplateRuleFields {
  name?: string | undefined;
  header_format?: 'NONE' | 'TEXT' | 'IMAGE' | undefined;
  header_text?: string | undefined;
  header_image?: string | null | undefined;
  body?: string | undefined;
  buttons?: readonly ButtonLike[] | undefined;
  header_examples?: readonly string[] | undefined;
  body_examples?: readonly string[] | undefined;
}

export type TemplateProblemField = 'name' | 'header' | 'body' | 'buttons' | 'examples';
export interface TemplateProblem {
  field: TemplateProblemField;
  message: string;
}

/** Spec 3 §5: quick replies first, the others after, each group in the order written. */
export function sortTemplateButtons<B extends { type: string }>(buttons: readonly B[]): B[] {
  return [
    ...buttons.filter((b) => b.type === 'QUICK_REPLY'),
    ...buttons.filter((b) => b.type !== 'QUICK_REPLY'),
  ];
}

/**
 * Every problem of a template about to be saved (spec 3 §5 Template save, and the limits Meta would refuse
 * it for), in the order of the dialog's fields; none means it may go to Meta. The header text and the body
 * are read normalised ({{ nome }} → {{1}}), as they are sent; examples are one per {{n}}, in order.
 */
export function templateProblems(f: TemplateRuleFields): TemplateProblem[] {
  const out: TemplateProblem[] = [];
  const add = (field: TemplateProblemField, message: string) => {
    if (!out.some((p) => p.field === field && p.message === message)) out.push({ field, message });
  };
  const name = (f.name ?? '').trim();
  if (!name) add('name', messages.nameRequired);
  else if (!TEMPLATE_NAME.test(name)) add('name', templateMessages.templateNameInvalid);

  const headerText = normaliseTemplateText((f.header_text ?? '').trim());
  if (f.header_format === 'TEXT') {
    if (!headerText) add('header', templateMessages.templateHeaderTextRequired);
    else if (templateIndexes(headerText).length > 1)
      add('header', templateMessages.templateHeaderOneVariable);
  }
  if (f.header_format === 'IMAGE' && !f.header_image)
    add('header', templateMessages.templateHeaderImageRequired);

  const body = normaliseTemplateText((f.body ?? '').trim());
  if (!body) add('body', templateMessages.templateBodyRequired);
  else if (/^\{\{\d+\}\}|\{\{\d+\}\}$/.test(body)) add('body', templateMessages.templateBodyVariableAtEdge);

  const buttons = f.buttons ?? [];
  if (buttons.length > TEMPLATE_MAX_BUTTONS) add('buttons', templateMessages.templateTooManyButtons);
  for (const b of buttons) {
    const text = b.text.trim();
    if (!text) add('buttons', templateMessages.templateButtonTextRequired);
    else if (text.length > TEMPLATE_BUTTON_TEXT_MAX)
      add('buttons', templateMessages.templateButtonTextTooLong);
    if (b.type === 'URL') {
      const url = (b.url ?? '').trim();
      if (!url) add('buttons', templateMessages.templateButtonUrlRequired);
      else if (url.length > TEMPLATE_BUTTON_VALUE_MAX)
        add('buttons', templateMessages.templateButtonValueTooLong);
      else if (!HTTP_URL.test(url)) add('buttons', templateMessages.templateButtonUrlInvalid);
    }
    if (b.type === 'PHONE_NUMBER') {
      const phone = (b.phone_number ?? '').trim();
      if (!phone) add('buttons', templateMessages.templateButtonPhoneRequired);
      else if (phone.length > TEMPLATE_BUTTON_VALUE_MAX)
        add('buttons', templateMessages.templateButtonValueTooLong);
      else if (!PHONE_EXAMPLE.test(phone)) add('buttons', templateMessages.templateButtonPhoneInvalid);
    }
  }
  if (buttons.filter((b) => b.type === 'URL').length > 1)
    add('buttons', templateMessages.templateOneUrlButton);
  if (buttons.filter((b) => b.type === 'PHONE_NUMBER').length > 1)
    add('buttons', templateMessages.templateOnePhoneButton);

  const missing = (examples: readonly string[] | undefined, n: number) => !(examples?.[n - 1] ?? '').trim();
  if (f.header_format === 'TEXT')
    for (const n of templateIndexes(headerText))
      if (missing(f.header_examples, n))
        add('examples', templateMessages.templateExampleRequired(`{{${n}}}`));
  for (const n of templateIndexes(body))
    if (missing(f.body_examples, n)) add('examples', templateMessages.templateExampleRequired(`{{${n}}}`));
  return out;
}
