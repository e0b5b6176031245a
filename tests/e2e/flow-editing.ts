// The flow editor driven as a person does (issue 16): the palette, dragging nodes and handles, the node panel.
// Shared by the editor's tests and the flow's journey from the editor to the simulator phone.
import type { Locator, Page } from '@playwright/test';
import type { Flow } from '@/shared/contract/flows';
import { flowEditorLabels } from '@/shared/messages-editors';
import { expect, test } from './fixtures';

export const L = flowEditorLabels;
export const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });
/** Closes the toasts on screen. */
export async function dismissToasts(page: Page) {
  const close = page.getByRole('alert').getByRole('button', { name: 'Fechar' });
  while ((await close.count()) > 0)
    await close
      .first()
      .click({ timeout: 2000 })
      .catch(() => undefined);
}
export const nodesOf = (page: Page, type: string) => page.locator(`.react-flow__node-${type}`);

export type Api = { call<T>(c: string, b?: unknown, t?: string): Promise<T> };

/** A fresh flow of the account ('Início' alone), through the real call. */
export async function newFlow(server: Api, token: string) {
  const name = `Boas-vindas ${test.info().project.name} ${Date.now()}`;
  return server.call<Flow>('create-or-update-flow', { name }, token);
}

export async function openEditor(page: Page, id: string) {
  await page.goto(`/flows/${id}`);
  await expect(nodesOf(page, 'start')).toBeVisible();
}

export async function addNode(page: Page, type: keyof typeof L.nodeTypes) {
  const before = await nodesOf(page, type).count();
  await page.getByRole('button', { name: L.addComponent }).click();
  await page.getByRole('menuitem', { name: L.nodeTypes[type] }).click();
  await expect(nodesOf(page, type)).toHaveCount(before + 1);
  return nodesOf(page, type).nth(before);
}

/** Drags a node by its header (grabbed 20 px from its left) to a point of the canvas. */
export async function moveNode(page: Page, node: Locator, to: { x: number; y: number }) {
  const box = await node.locator('.flow-node-header').boundingBox();
  if (!box) throw new Error('node not on screen');
  await page.mouse.move(box.x + 20, box.y + box.height / 2);
  await page.mouse.down();
  // A first small move starts the drag; the node then follows the pointer exactly.
  await page.mouse.move(box.x + 24, box.y + box.height / 2 + 4, { steps: 2 });
  await page.mouse.move(to.x, to.y, { steps: 12 });
  await page.mouse.up();
}

/** Connects a branch of one node to another node by dragging its handle onto the target handle. */
export async function drag(page: Page, from: Locator, to: Locator) {
  const a = await from.boundingBox();
  const b = await to.boundingBox();
  if (!a || !b) throw new Error('handle not on screen');
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 10 });
  await page.mouse.up();
}

export const source = (node: Locator, branch = 'next') =>
  node.locator(`.react-flow__handle.source[data-handleid="${branch}"]`);
export const target = (node: Locator) => node.locator('.react-flow__handle.target');
export const panel = (page: Page) => page.getByTestId('node-panel');
/** Closes the node's panel: the canvas takes the whole width again. */
export const closePanel = (page: Page) => panel(page).getByRole('button', { name: L.closePanel }).click();
/** The drawn card inside xyflow's node wrapper (it carries the broken mark). */
export const card = (node: Locator) => node.locator('.flow-node');

export async function pick(page: Page, scope: Locator, label: string, option: string) {
  await scope.getByLabel(label, { exact: true }).click();
  await page.getByRole('option', { name: option }).click();
}

export async function tagNamed(server: Api, token: string, name: string) {
  return server.call<{ _id: string }>(
    'create-or-update-tag',
    { name, color: '#1C7ED6', auto_tag: false, keywords: [] },
    token,
  );
}
