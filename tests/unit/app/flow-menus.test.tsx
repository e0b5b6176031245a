// @vitest-environment happy-dom
// Flows' menus as people see them: on the simulated phone, quick replies are tappable buttons under the
// message and a list opens a sheet of rows, each tap answering with that option; in the panel, the attendant
// sees the options the customer was offered, not as buttons.
import { MantineProvider } from '@mantine/core';
import { act, createElement, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MessageBubble as PaneBubble } from '@/app/features/attendance/pane/MessageBubble';
import { MessageBubble as PhoneBubble } from '@/app/features/simulator/MessageBubble';
import type { SimulatorMessage } from '@/shared/contract/chips';
import type { InteractiveMenu } from '@/shared/contract/common';
import { messageFixture } from './message-fixture';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let host: HTMLElement;
let root: Root;
beforeEach(() => {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
});
afterEach(() => {
  act(() => root.unmount());
  document.body.innerHTML = '';
});

const render = (node: ReactNode) =>
  act(() => root.render(createElement(MantineProvider, null, createElement('ol', null, node))));

const buttons: InteractiveMenu = {
  kind: 'buttons',
  button: null,
  options: [
    { id: 'sim', title: 'Sim' },
    { id: 'nao', title: 'Não' },
    { id: 'talvez', title: 'Talvez' },
  ],
};
const list: InteractiveMenu = {
  kind: 'list',
  button: 'Ver assuntos',
  options: [
    { id: 'fin', title: 'Financeiro', description: 'Boletos e notas' },
    { id: 'sup', title: 'Suporte' },
  ],
};

const fromBusiness = (text: string, interactive: InteractiveMenu | null): SimulatorMessage => ({
  id: 'SIM1',
  from_me: true,
  type: 'text',
  text,
  media_url: null,
  file_name: null,
  ptt: false,
  location: null,
  status: 3,
  deleted: false,
  created: '2026-03-10T12:00:00.000Z',
  interactive,
});

const phoneBubble = (message: SimulatorMessage, onChoose = vi.fn(), menuDisabled = false) => {
  render(
    createElement(PhoneBubble, {
      bubble: { message, deleted: false },
      chipName: 'Loja',
      onRetry: vi.fn(),
      onMediaLoad: vi.fn(),
      onChoose,
      menuDisabled,
    }),
  );
  return onChoose;
};

const buttonsNamed = (name: string) =>
  [...document.querySelectorAll('button')].filter((b) => b.textContent?.trim() === name);

describe('the simulated phone', () => {
  it('draws quick replies as buttons under the text; a tap answers with that option', () => {
    const onChoose = phoneBubble(fromBusiness('Podemos confirmar?', buttons));
    expect(host.textContent).toContain('Podemos confirmar?');
    expect(['Sim', 'Não', 'Talvez'].map((t) => buttonsNamed(t).length)).toEqual([1, 1, 1]);
    act(() => buttonsNamed('Não')[0]?.click());
    expect(onChoose).toHaveBeenCalledWith({ id: 'nao', title: 'Não' });
    // Still tappable afterwards, as on WhatsApp.
    act(() => buttonsNamed('Sim')[0]?.click());
    expect(onChoose).toHaveBeenLastCalledWith({ id: 'sim', title: 'Sim' });
  });

  it('draws a list as its button; the sheet lists the rows with their descriptions and a tap answers', async () => {
    const onChoose = phoneBubble(fromBusiness('Escolha um assunto', list));
    expect(buttonsNamed('Financeiro')).toHaveLength(0);
    await act(async () => buttonsNamed('Ver assuntos')[0]?.click());
    const sheet = await vi.waitFor(() => {
      const found = document.querySelector('[role="dialog"]');
      if (!found) throw new Error('no sheet yet');
      return found;
    });
    expect(sheet.textContent).toContain('Boletos e notas');
    const row = [...sheet.querySelectorAll('button')].find((b) => b.textContent?.startsWith('Financeiro'));
    await act(async () => row?.click());
    expect(onChoose).toHaveBeenCalledWith({ id: 'fin', title: 'Financeiro' });
  });

  it('offers nothing to tap on a plain message, and nothing while the chip is offline', () => {
    phoneBubble(fromBusiness('Olá!', null));
    expect(document.querySelectorAll('button')).toHaveLength(0);
    const onChoose = phoneBubble(fromBusiness('Podemos confirmar?', buttons), vi.fn(), true);
    expect(buttonsNamed('Sim')[0]?.disabled).toBe(true);
    act(() => buttonsNamed('Sim')[0]?.click());
    expect(onChoose).not.toHaveBeenCalled();
  });
});

describe('the panel', () => {
  it("shows the options offered under the flow's message, as a list, not as buttons", () => {
    render(
      createElement(PaneBubble, {
        message: messageFixture({ origin: 'chatbot', message: 'Podemos confirmar?', interactive: buttons }),
        me: 'U1',
        actions: { onOpenImage: vi.fn(), onDelete: vi.fn() },
      }),
    );
    const offered = host.querySelector('ul[aria-label="Opções enviadas"]');
    expect([...(offered?.querySelectorAll('li') ?? [])].map((li) => li.textContent)).toEqual([
      'Sim',
      'Não',
      'Talvez',
    ]);
    expect(buttonsNamed('Sim')).toHaveLength(0);
  });

  it('shows no options for a message without a menu', () => {
    render(
      createElement(PaneBubble, {
        message: messageFixture({ origin: 'chatbot', message: 'Olá' }),
        me: 'U1',
        actions: { onOpenImage: vi.fn(), onDelete: vi.fn() },
      }),
    );
    expect(host.querySelector('ul[aria-label="Opções enviadas"]')).toBeNull();
  });
});
