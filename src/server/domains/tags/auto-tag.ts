// Which auto-tags a customer's text gets: a tag with auto_tag on matches when one of its keywords appears
// in the text as whole words, ignoring case and accents ('Orçamento' matches 'orcamento', 'pão' doesn't
// match 'pãozinho'); a keyword of several words matches them in sequence. The message pipeline calls it
// for every inbound message.

export interface AutoTagCandidate {
  id: string;
  autoTag: boolean;
  keywords: readonly string[];
}

/** Lower case, no accents, words separated by one space, padded so that ' word ' finds whole words. */
function words(text: string): string {
  const folded = text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase('pt-BR');
  const tokens = folded.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return tokens.length ? ` ${tokens.join(' ')} ` : '';
}

export function matchAutoTags(text: string, tags: readonly AutoTagCandidate[]): string[] {
  const haystack = words(text);
  if (!haystack) return [];
  return tags
    .filter(
      (t) =>
        t.autoTag &&
        t.keywords.some((k) => {
          const needle = words(k);
          return needle !== '' && haystack.includes(needle);
        }),
    )
    .map((t) => t.id);
}
