import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { type FormatNode, parseWhatsApp, WhatsAppText } from '@/app/ui/whatsapp-format';

const html = (text: string) => renderToStaticMarkup(createElement(WhatsAppText, { text }));
const t = (text: string): FormatNode => ({ kind: 'text', text });

describe('parseWhatsApp', () => {
  it('reads the four marks', () => {
    expect(parseWhatsApp('*negrito*')).toEqual([{ kind: 'bold', children: [t('negrito')] }]);
    expect(parseWhatsApp('_itálico_')).toEqual([{ kind: 'italic', children: [t('itálico')] }]);
    expect(parseWhatsApp('~riscado~')).toEqual([{ kind: 'strike', children: [t('riscado')] }]);
    expect(parseWhatsApp('```mono```')).toEqual([{ kind: 'mono', text: 'mono' }]);
  });

  it('keeps the text around the marks', () => {
    expect(parseWhatsApp('Olá *Maria*, tudo bem?')).toEqual([
      t('Olá '),
      { kind: 'bold', children: [t('Maria')] },
      t(', tudo bem?'),
    ]);
  });

  it('nests marks', () => {
    expect(parseWhatsApp('*_bold italic_*')).toEqual([
      { kind: 'bold', children: [{ kind: 'italic', children: [t('bold italic')] }] },
    ]);
  });

  it('leaves unbalanced and crossing markers as typed', () => {
    expect(parseWhatsApp('*sem fim')).toEqual([t('*sem fim')]);
    expect(parseWhatsApp('fim sem começo*')).toEqual([t('fim sem começo*')]);
    expect(parseWhatsApp('*bold _italic* text_')).toEqual([
      { kind: 'bold', children: [t('bold _italic')] },
      t(' text_'),
    ]);
    expect(parseWhatsApp('** e *** e ~~')).toEqual([t('** e *** e ~~')]);
    expect(parseWhatsApp('``````')).toEqual([t('``````')]);
    expect(parseWhatsApp('```aberto')).toEqual([t('```aberto')]);
  });

  it('needs word boundaries, as WhatsApp does', () => {
    expect(parseWhatsApp('2*3*4')).toEqual([t('2*3*4')]);
    expect(parseWhatsApp('nome_do_arquivo.pdf')).toEqual([t('nome_do_arquivo.pdf')]);
    expect(parseWhatsApp('* espaço *')).toEqual([t('* espaço *')]);
    expect(parseWhatsApp('(*ok*)')).toEqual([t('('), { kind: 'bold', children: [t('ok')] }, t(')')]);
  });

  it('does not format across lines, except mono', () => {
    expect(parseWhatsApp('*linha\noutra*')).toEqual([t('*linha\noutra*')]);
    expect(parseWhatsApp('```a\n*b*```')).toEqual([{ kind: 'mono', text: 'a\n*b*' }]);
  });

  it('turns http(s) addresses into links, and nothing else', () => {
    expect(parseWhatsApp('veja https://exemplo.com/a_b_c.')).toEqual([
      t('veja '),
      { kind: 'link', href: 'https://exemplo.com/a_b_c', text: 'https://exemplo.com/a_b_c' },
      t('.'),
    ]);
    expect(parseWhatsApp('javascript:alert(1)')).toEqual([t('javascript:alert(1)')]);
    expect(parseWhatsApp('http://')).toEqual([t('http://')]);
  });

  it('survives hostile input quickly', () => {
    const inputs = [
      '*'.repeat(4096),
      '*a '.repeat(1365),
      '_*~'.repeat(1365),
      `${'*_~'.repeat(500)}x${'~_*'.repeat(500)}`,
      '```'.repeat(1365),
      'h'.repeat(4096),
    ];
    const start = performance.now();
    for (const input of inputs) {
      const nodes = parseWhatsApp(input);
      expect(nodes.length).toBeGreaterThan(0);
    }
    expect(performance.now() - start).toBeLessThan(1500);
  });

  it('bounds nesting depth', () => {
    const deep = `${'*_~'.repeat(10)}x${'~_*'.repeat(10)}`;
    let depth = 0;
    const walk = (nodes: FormatNode[], d: number) => {
      for (const n of nodes) {
        depth = Math.max(depth, d);
        if ('children' in n) walk(n.children, d + 1);
      }
    };
    walk(parseWhatsApp(deep), 0);
    expect(depth).toBeLessThanOrEqual(6);
  });
});

describe('WhatsAppText', () => {
  it('renders marks as elements and escapes everything else', () => {
    expect(html('<script>alert(1)</script> *oi*')).toBe(
      '&lt;script&gt;alert(1)&lt;/script&gt; <strong>oi</strong>',
    );
    expect(html('*<img src=x onerror=alert(1)>*')).toBe(
      '<strong>&lt;img src=x onerror=alert(1)&gt;</strong>',
    );
    expect(html('```<b>cru</b>```')).toContain('&lt;b&gt;cru&lt;/b&gt;</code>');
    expect(html('_a_ ~b~')).toBe('<em>a</em> <s>b</s>');
  });

  it('opens links in a new tab without giving them the page', () => {
    expect(html('https://exemplo.com')).toBe(
      '<a href="https://exemplo.com" target="_blank" rel="noopener noreferrer nofollow">https://exemplo.com</a>',
    );
    expect(html('https://x.com/"onmouseover=alert(1)')).toContain('href="https://x.com/"');
  });
});
