// The Cloud API's interactive messages read and written by our adapter: a tap on a reply button or a list row
// (and a template's quick reply) becomes the customer's text with the option it chose; a flow's menu becomes
// Meta's 'button' or 'list' interactive payload within WhatsApp's limits.
import { describe, expect, it } from 'vitest';
import { interactivePayload, toInbound, webhookMessage } from '@/server/channels/cloud-api/payload';
import { messages as texts } from '@/shared/messages';

const noDownload = async () => {
  throw new Error('no media here');
};
const read = (raw: Record<string, unknown>) =>
  toInbound(webhookMessage.parse({ id: 'wamid.1', from: '5511987654321', ...raw }), 'Maria', noDownload);

describe('a tap on a menu arrives as the option chosen', () => {
  it('a reply button: text is the title, choice names the button', async () => {
    const m = await read({
      type: 'interactive',
      interactive: { type: 'button_reply', button_reply: { id: 'opt_sim', title: 'Sim' } },
    });
    expect(m).toMatchObject({ type: 'text', text: 'Sim', choice: { id: 'opt_sim', title: 'Sim' } });
  });

  it('a list row: text is the row title, choice names the row (the description is not the answer)', async () => {
    const m = await read({
      type: 'interactive',
      interactive: {
        type: 'list_reply',
        list_reply: { id: 'row_2', title: 'Segunda via', description: 'Boleto do mês' },
      },
    });
    expect(m).toMatchObject({
      type: 'text',
      text: 'Segunda via',
      choice: { id: 'row_2', title: 'Segunda via' },
    });
  });

  it("a template's quick reply: its payload is the choice's id; without one it is plain text", async () => {
    expect(
      await read({ type: 'button', button: { text: 'Quero saber mais', payload: 'MAIS' } }),
    ).toMatchObject({
      text: 'Quero saber mais',
      choice: { id: 'MAIS', title: 'Quero saber mais' },
    });
    const plain = await read({ type: 'button', button: { text: 'Ok' } });
    expect(plain).toMatchObject({ type: 'text', text: 'Ok' });
    expect(plain).not.toHaveProperty('choice');
  });

  it('typed text carries no choice, and a form answer stays a text', async () => {
    const typed = await read({ type: 'text', text: { body: '1' } });
    expect(typed).not.toHaveProperty('choice');
    const form = await read({ type: 'interactive', interactive: { type: 'nfm_reply', nfm_reply: {} } });
    expect(form).toMatchObject({ text: texts.cloudApiFormAnswered });
    expect(form).not.toHaveProperty('choice');
  });
});

describe("a flow's menu as Meta's interactive message", () => {
  it('quick replies: reply buttons with id and title', () => {
    expect(
      interactivePayload('Podemos confirmar?', {
        kind: 'buttons',
        button: null,
        options: [
          { id: 'sim', title: 'Sim' },
          { id: 'nao', title: 'Não' },
        ],
      }),
    ).toEqual({
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text: 'Podemos confirmar?' },
        action: {
          buttons: [
            { type: 'reply', reply: { id: 'sim', title: 'Sim' } },
            { type: 'reply', reply: { id: 'nao', title: 'Não' } },
          ],
        },
      },
    });
  });

  it('a list: its button and one section of rows (descriptions when given)', () => {
    expect(
      interactivePayload('Escolha um assunto', {
        kind: 'list',
        button: 'Ver assuntos',
        options: [
          { id: 'a', title: 'Financeiro', description: 'Boletos e notas' },
          { id: 'b', title: 'Suporte' },
        ],
      }),
    ).toEqual({
      type: 'interactive',
      interactive: {
        type: 'list',
        body: { text: 'Escolha um assunto' },
        action: {
          button: 'Ver assuntos',
          sections: [
            {
              rows: [
                { id: 'a', title: 'Financeiro', description: 'Boletos e notas' },
                { id: 'b', title: 'Suporte' },
              ],
            },
          ],
        },
      },
    });
  });

  it("stays within WhatsApp's limits: 3 buttons of 20 characters, 10 rows of 24 (72 for descriptions)", () => {
    const long = 'x'.repeat(100);
    const buttons = interactivePayload(long.repeat(20), {
      kind: 'buttons',
      button: null,
      options: ['1', '2', '3', '4'].map((id) => ({ id, title: long })),
    }).interactive;
    expect(buttons.body.text).toHaveLength(1024);
    const replies = (buttons.action as { buttons: { reply: { title: string } }[] }).buttons;
    expect(replies).toHaveLength(3);
    expect(replies.every((b) => b.reply.title.length === 20)).toBe(true);

    const list = interactivePayload('Menu', {
      kind: 'list',
      button: '',
      options: Array.from({ length: 12 }, (_, i) => ({ id: `r${i}`, title: long, description: long })),
    }).interactive;
    const action = list.action as {
      button: string;
      sections: { rows: { title: string; description?: string }[] }[];
    };
    // An empty button text takes the default ('Ver opções').
    expect(action.button).toBe(texts.flowListButton);
    const rows = action.sections[0]?.rows ?? [];
    expect(rows).toHaveLength(10);
    expect(rows.every((r) => r.title.length === 24 && r.description?.length === 72)).toBe(true);
  });
});
