// WhatsApp's text formatting (*bold*, _italic_, ~strike~, ```mono```) and plain links, turned into React
// elements. A message is never HTML: the parser yields a small tree of text and marks, and React escapes
// every piece of text it renders. Unbalanced or crossing markers stay as typed.
import type { ReactNode } from 'react';

export type FormatNode =
  | { kind: 'text'; text: string }
  | { kind: 'bold' | 'italic' | 'strike'; children: FormatNode[] }
  | { kind: 'mono'; text: string }
  | { kind: 'link'; href: string; text: string };

const MARKS = { '*': 'bold', _: 'italic', '~': 'strike' } as const;
type Mark = keyof typeof MARKS;
const isMark = (c: string | undefined): c is Mark => c === '*' || c === '_' || c === '~';

/** Deeper nesting than this is shown as typed: it keeps the tree (and the render) small for any input. */
const MAX_DEPTH = 6;
const FENCE = '```';

const WORD = /[\p{L}\p{N}]/u;
const SPACE = /\s/;
const isWordChar = (c: string | undefined) => c !== undefined && WORD.test(c);
const isSpace = (c: string | undefined) => c === undefined || SPACE.test(c);

const URL_AT = /^https?:\/\/[^\s<>"']+/i;
const URL_TRAILING = /[.,;:!?)\]}]+$/;

function pushText(out: FormatNode[], text: string) {
  if (!text) return;
  const last = out.at(-1);
  if (last?.kind === 'text') last.text += text;
  else out.push({ kind: 'text', text });
}

/** Where the marker opened at `open` closes on the same line, or -1. */
function closingOf(s: string, open: number, mark: Mark): number {
  for (let j = open + 2; j < s.length; j++) {
    const c = s[j];
    if (c === '\n') return -1;
    if (c === mark && !isSpace(s[j - 1]) && s[j - 1] !== mark && !isWordChar(s[j + 1])) return j;
  }
  return -1;
}

function parseInline(s: string, depth: number): FormatNode[] {
  const out: FormatNode[] = [];
  let text = '';
  let i = 0;
  while (i < s.length) {
    const c = s[i] as string;
    const prev = s[i - 1];
    if ((c === 'h' || c === 'H') && !isWordChar(prev)) {
      const url = URL_AT.exec(s.slice(i, i + 2048))?.[0].replace(URL_TRAILING, '');
      if (url && url.length > url.indexOf('//') + 2) {
        pushText(out, text);
        text = '';
        out.push({ kind: 'link', href: url, text: url });
        i += url.length;
        continue;
      }
    }
    // An opening marker follows a non-word character and precedes a non-space one ('**' opens nothing).
    const next = s[i + 1];
    if (isMark(c) && depth < MAX_DEPTH && !isWordChar(prev) && !isSpace(next) && next !== c) {
      const close = closingOf(s, i, c);
      if (close > 0) {
        pushText(out, text);
        text = '';
        out.push({ kind: MARKS[c], children: parseInline(s.slice(i + 1, close), depth + 1) });
        i = close + 1;
        continue;
      }
    }
    text += c;
    i++;
  }
  pushText(out, text);
  return out;
}

/** The formatting tree of a message's text. */
export function parseWhatsApp(input: string): FormatNode[] {
  const out: FormatNode[] = [];
  let rest = input;
  // ```mono``` first: its content is shown as typed, markers and all, and may span lines.
  for (;;) {
    const open = rest.indexOf(FENCE);
    const close = open >= 0 ? rest.indexOf(FENCE, open + FENCE.length) : -1;
    if (open < 0 || close < 0) break;
    const code = rest.slice(open + FENCE.length, close);
    if (!code) {
      for (const node of parseInline(rest.slice(0, close), 0)) appendNode(out, node);
      rest = rest.slice(close);
      continue;
    }
    for (const node of parseInline(rest.slice(0, open), 0)) appendNode(out, node);
    out.push({ kind: 'mono', text: code });
    rest = rest.slice(close + FENCE.length);
  }
  for (const node of parseInline(rest, 0)) appendNode(out, node);
  return out;
}

function appendNode(out: FormatNode[], node: FormatNode) {
  if (node.kind === 'text') pushText(out, node.text);
  else out.push(node);
}

function renderNode(node: FormatNode, key: number): ReactNode {
  switch (node.kind) {
    case 'text':
      return node.text;
    case 'bold':
      return <strong key={key}>{render(node.children)}</strong>;
    case 'italic':
      return <em key={key}>{render(node.children)}</em>;
    case 'strike':
      return <s key={key}>{render(node.children)}</s>;
    case 'mono':
      return (
        <code key={key} style={{ fontFamily: 'var(--mantine-font-family-monospace)', fontSize: '0.92em' }}>
          {node.text}
        </code>
      );
    case 'link':
      return (
        <a key={key} href={node.href} target="_blank" rel="noopener noreferrer nofollow">
          {node.text}
        </a>
      );
    default:
      return null;
  }
}

// The tree is rebuilt from the text each time: a node's place is its identity.
const render = (nodes: FormatNode[]): ReactNode[] => nodes.map(renderNode);

/** A message's text with its WhatsApp formatting; line breaks are kept by the caller's `white-space`. */
export function WhatsAppText({ text }: { text: string }) {
  return <>{render(parseWhatsApp(text))}</>;
}
