// templateProblems (spec 3 §5 Template save): the one rule the dialog and the server apply, read on the
// normalised texts; sortTemplateButtons (quick replies first); the status event applied to the screen's cache.
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { applyTemplateStatus, templatesQuery } from '@/app/features/templates/template-data';
import type { MessageTemplate } from '@/shared/contract/templates';
import { messages } from '@/shared/messages';
import { templateMessages as tm } from '@/shared/messages-campaigns';
import {
  isDefaultTemplate,
  sortTemplateButtons,
  templateNameOf,
  templateProblems,
} from '@/shared/rules/template';

const ok = {
  name: 'boas_vindas',
  header_format: 'NONE' as const,
  body: 'Olá {{ nome }}, tudo bem?',
  buttons: [],
  body_examples: ['Ana'],
};

describe('templateProblems', () => {
  it('accepts a complete template', () => {
    expect(templateProblems(ok)).toEqual([]);
  });

  it('names each problem on its field, in the order of the dialog', () => {
    expect(
      templateProblems({
        name: '',
        header_format: 'TEXT',
        header_text: '',
        body: '',
        buttons: [
          { type: 'URL', text: 'A', url: 'https://a.test' },
          { type: 'URL', text: 'B', url: 'https://b.test' },
        ],
      }),
    ).toEqual([
      { field: 'name', message: messages.nameRequired },
      { field: 'header', message: tm.templateHeaderTextRequired },
      { field: 'body', message: tm.templateBodyRequired },
      { field: 'buttons', message: tm.templateOneUrlButton },
    ]);
  });

  it('counts variables after normalisation: {{nome}} twice is one example', () => {
    expect(templateProblems({ ...ok, body: 'Oi {{nome}} e {{ nome }}!', body_examples: ['Ana'] })).toEqual(
      [],
    );
    expect(templateProblems({ ...ok, body: 'Oi {{a}} e {{b}}!', body_examples: ['Ana'] })).toEqual([
      { field: 'examples', message: tm.templateExampleRequired('{{2}}') },
    ]);
  });

  it('takes exactly 25 characters and 10 buttons, not one more', () => {
    const quick = (text: string) => ({ type: 'QUICK_REPLY' as const, text });
    expect(
      templateProblems({ ...ok, buttons: Array.from({ length: 10 }, () => quick('x'.repeat(25))) }),
    ).toEqual([]);
    expect(templateProblems({ ...ok, buttons: [quick('x'.repeat(26))] })).toEqual([
      { field: 'buttons', message: tm.templateButtonTextTooLong },
    ]);
    expect(templateProblems({ ...ok, buttons: Array.from({ length: 11 }, () => quick('x')) })).toEqual([
      { field: 'buttons', message: tm.templateTooManyButtons },
    ]);
  });

  it('accepts the spec’s phone example and a URL of 1000 characters', () => {
    const url = `https://${'a'.repeat(992)}`;
    expect(url).toHaveLength(1000);
    expect(
      templateProblems({
        ...ok,
        buttons: [
          { type: 'PHONE_NUMBER', text: 'Ligar', phone_number: '+5511955555555' },
          { type: 'URL', text: 'Site', url },
        ],
      }),
    ).toEqual([]);
  });
});

describe('template helpers', () => {
  it('sorts quick replies first, keeping each group’s order', () => {
    const list = [
      { type: 'URL', text: 'u' },
      { type: 'QUICK_REPLY', text: 'a' },
      { type: 'PHONE_NUMBER', text: 'p' },
      { type: 'QUICK_REPLY', text: 'b' },
    ];
    expect(sortTemplateButtons(list).map((b) => b.text)).toEqual(['a', 'b', 'u', 'p']);
  });

  it('knows Meta’s default templates and types names the way Meta takes them', () => {
    expect([
      isDefaultTemplate('hello_world'),
      isDefaultTemplate('sample_flight'),
      isDefaultTemplate('hello'),
    ]).toEqual([true, true, false]);
    expect(templateNameOf('Boas Vindas 2')).toBe('boas_vindas_2');
    expect(templateNameOf(' Confirmação Pedido ')).toBe('confirmacao_pedido');
    expect(templateNameOf('Black-Friday: 50%!')).toBe('black_friday_50');
  });

  it('applies a status event to the chip’s cached list, or asks again for a template it does not know', async () => {
    const client = new QueryClient();
    const key = templatesQuery('chip1').queryKey;
    const template = { name: 'aviso', language: 'pt_BR', status: 'PENDING', reason: null } as MessageTemplate;
    client.setQueryData(key, [template]);
    applyTemplateStatus(client, 'chip1', {
      waba: 'w',
      name: 'aviso',
      language: 'pt_BR',
      status: 'REJECTED',
      reason: 'PROMOTIONAL',
    });
    expect(client.getQueryData<MessageTemplate[]>(key)?.[0]).toMatchObject({
      status: 'REJECTED',
      reason: 'PROMOTIONAL',
    });
    applyTemplateStatus(client, 'chip1', {
      waba: 'w',
      name: 'novo',
      language: 'pt_BR',
      status: 'APPROVED',
      reason: null,
    });
    expect(client.getQueryState(key)?.isInvalidated).toBe(true);
  });
});
