// Issue 34's screens at both sizes (the other specs that cover them run at 1280×800 only): the 'Saiba mais'
// of the four list pages that lacked it, the department dialog's equal distribution switch with its
// explanation. (/webhooks without the API key runs at both sizes in webhooks.spec.)
import type { Page } from '@playwright/test';
import { labels } from '@/shared/messages';
import { calm, isPhone, shot, signedIn } from './app';
import { expect, test } from './fixtures';

test.use({ seed: 'demo', ...calm });

const project = () => test.info().project.name;

/** The page's 'Saiba mais' opens its dialog, which says something and closes with Escape. */
async function saibaMais(page: Page, path: string) {
  await page.goto(path);
  const button = page.getByRole('button', { name: labels.common.learnMore });
  await expect(button).toBeVisible();
  // Reachable with a thumb: not smaller than 24 px on either side.
  const box = await button.boundingBox();
  expect(box?.height ?? 0, path).toBeGreaterThanOrEqual(24);
  await button.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  expect(((await dialog.textContent()) ?? '').length, path).toBeGreaterThan(40);
  await shot(page, `saiba-mais${path.replace(/\//g, '-')}`);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
}

test('Saiba mais on /templates, /auto-follow-ups, /admin-clientes and /admin-ofertas', {
  tag: '@phone',
}, async ({ page, server }) => {
  await signedIn(page, server, 'dono@demo.com');
  for (const path of ['/templates', '/auto-follow-ups']) await saibaMais(page, path);
  await signedIn(page, server, 'admin@demo.com');
  for (const path of ['/admin-clientes', '/admin-ofertas']) await saibaMais(page, path);
});

test('the department dialog: equal distribution off by default, its explanation, saved on', {
  tag: '@phone',
}, async ({ page, server }) => {
  const name = `Distribuição ${project()} ${Date.now().toString(36)}`;
  await signedIn(page, server, 'gerente@demo.com');
  await page.goto('/departamentos');
  await page.getByRole('button', { name: 'Novo departamento' }).click();
  const dialog = page.getByRole('dialog', { name: 'Novo departamento' });
  await dialog.getByLabel('Nome').fill(name);
  const distribute = dialog.getByRole('switch', { name: labels.departments.equalDistribution });
  await expect(distribute).not.toBeChecked();
  await expect(dialog).toContainText(labels.departments.equalDistributionExplanation);
  await distribute.check();
  await expect(distribute).toBeInViewport();
  await shot(page, 'distribution-dialog');
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await expect(dialog).toBeHidden();
  // Opened again, the setting is kept.
  const rows = isPhone()
    ? page.getByRole('list', { name: 'Departamentos' }).getByRole('listitem')
    : page.getByRole('table', { name: 'Departamentos' }).getByRole('row');
  await rows.filter({ hasText: name }).getByRole('button', { name: labels.common.edit }).click();
  const edit = page.getByRole('dialog', { name: 'Editar departamento' });
  await expect(edit.getByRole('switch', { name: labels.departments.equalDistribution })).toBeChecked();
});
