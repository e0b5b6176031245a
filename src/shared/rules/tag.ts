// Tag rules (spec 1 §5), shared by the tag dialog and the server so both give the same message.
import { DEFAULT_TAG_COLOR } from '../constants';
import { messages } from '../messages';
import { type FieldError, fieldError } from './field-error';

/** The tag dialog's fields a rule can point at ('keyword': the keyword box and its list). */
export type TagField = 'name' | 'color' | 'keyword';

export interface TagInput {
  name: string;
  color: string;
  auto_tag: boolean;
  keywords: string[];
}

const sameKeyword = (a: string, b: string) =>
  a.trim().toLocaleLowerCase('pt-BR') === b.trim().toLocaleLowerCase('pt-BR');

/** A keyword about to be added: not empty, not a case-insensitive duplicate. Answers the error or null. */
export function keywordError(keyword: string, keywords: readonly string[]): FieldError<TagField> | null {
  if (keyword.trim() === '') return fieldError('keyword', messages.keywordRequired);
  if (keywords.some((k) => sameKeyword(k, keyword))) return fieldError('keyword', messages.keywordDuplicate);
  return null;
}

/**
 * Normalises a tag for saving: a keyword typed but not yet added is added; keywords are cleared when
 * auto-tag is off. Answers the tag to save, or the first error.
 */
export function prepareTag(
  input: TagInput,
  pendingKeyword = '',
): { ok: true; tag: TagInput } | { ok: false; error: FieldError<TagField> } {
  const name = input.name.trim();
  const color = input.color.trim();
  if (!name) return { ok: false, error: fieldError('name', messages.nameRequired) };
  if (!color) return { ok: false, error: fieldError('color', messages.tagColorRequired) };
  if (!/^#[0-9a-fA-F]{6}$/.test(color))
    return { ok: false, error: fieldError('color', messages.tagColorInvalid) };
  let keywords: string[] = [];
  if (input.auto_tag) {
    for (const k of [...input.keywords, ...(pendingKeyword.trim() ? [pendingKeyword] : [])]) {
      const error = keywordError(k, keywords);
      if (error) return { ok: false, error };
      keywords.push(k.trim());
    }
    if (keywords.length === 0)
      return { ok: false, error: fieldError('keyword', messages.tagKeywordsRequired) };
  } else {
    keywords = [];
  }
  return { ok: true, tag: { name, color: color.toUpperCase(), auto_tag: input.auto_tag, keywords } };
}

export const newTag = (): TagInput => ({ name: '', color: DEFAULT_TAG_COLOR, auto_tag: false, keywords: [] });
