// Admin offers (issue 22 item 2, spec 3 §2.5, §5 Offer) as platform staff use them: the menu line, the
// accent-insensitive search, Nova oferta with every validation message, 'Oferta salva com sucesso', edit; and
// an account owner without the system role refused. Phone and desktop share one server: names carry the project.
import type { Page } from '@playwright/test';
import { labels, messages } from '@/shared/messages';
import { adminMenuLabels } from '@/shared/messages-admin-menu';
import { offerLabels as L, billingMessages as M } from '@/shared/messages-billing';
import { calm, isPhone, mainMenu, shot, signedIn } from './app';
import { expect, test } from './fixtures';

test.use({ seed: 'demo', ...calm });

const project = () => test.info().project.name;
const toast = (page: Page, text: string) => page.getByRole('alert').filter({ hasText: text });
const offerRow = (page: Page, name: string) =>
  isPhone()
    ? page.getByRole('list', { name: messages.offers }).getByRole('listitem').filter({ hasText: name })
    : page.getByRole('table', { name: messages.offers }).getByRole('row').filter({ hasText: name });

const LIMITS = [
  [L.maxChannels, messages.maxChannelsInvalid],
  [L.maxOfficialChannels, messages.maxOfficialChannelsInvalid],
  [L.maxUsers, messages.maxUsersInvalid],
  [labels.flows.flows, messages.maxFlowsInvalid],
  [L.maxSummaries, M.limitInvalid.max_summaries],
  [L.maxFollowUps, M.limitInvalid.max_follow_ups],
] as const;

test('create, search without accents and edit an offer, with every validation message', {
  tag: '@phone',
}, async ({ page, server }) => {
  const tag = `${project()} ${Date.now().toString(36)}`;
  const name = `Promoção Anual ${tag}`;
  const guruId = `off-${tag.replace(/\s/g, '-')}`;
  await signedIn(page, server, 'admin@demo.com');
  await page.goto('/atendimento');
  const menu = await mainMenu(page);
  await menu.getByRole('link', { name: messages.offers }).click();
  await expect(page).toHaveURL(/\/admin-ofertas$/);
  await expect(page.getByRole('heading', { level: 1, name: messages.offers })).toBeVisible();

  await page.getByRole('button', { name: L.newOffer }).click();
  const dialog = page.getByRole('dialog', { name: L.newOffer });
  await expect(dialog).toBeVisible();
  // No name: the spec's message on the name.
  await dialog.getByRole('button', { name: labels.common.save }).click();
  await expect(dialog.getByText(messages.nameRequired)).toBeVisible();
  await shot(page, 'offer-name-required');
  await dialog.getByRole('textbox', { name: labels.common.name }).fill(name);
  await expect(dialog.getByText(messages.nameRequired)).toHaveCount(0);
  await dialog.getByRole('textbox', { name: L.offerId }).fill(guruId);
  // Each limit emptied: its own message, gone once a number is typed again.
  for (const [label, message] of LIMITS) {
    const field = dialog.getByRole('textbox', { name: label });
    await field.fill('');
    await dialog.getByRole('button', { name: labels.common.save }).click();
    await expect(dialog.getByText(message)).toBeVisible();
    await field.fill('7');
    await expect(dialog.getByText(message)).toHaveCount(0);
  }
  await dialog.getByRole('switch', { name: messages.campaignsEnabled }).check({ force: true });
  await shot(page, 'offer-dialog');
  await dialog.getByRole('button', { name: labels.common.save }).click();
  await expect(toast(page, M.offerSaved)).toBeVisible();
  await expect(dialog).toBeHidden();
  const row = offerRow(page, name);
  await expect(row).toBeVisible();
  await expect(row).toContainText(guruId);
  await expect(row).toContainText(L.limitsSummary(7, 7, 7));

  // The search ignores accents and case.
  const search = page.getByRole('searchbox', { name: L.search });
  await search.fill(`promocao anual ${tag}`.toUpperCase());
  await expect(offerRow(page, name)).toBeVisible();
  await search.fill(`nada-assim-${tag}`);
  await expect(page.getByText(L.emptySearch)).toBeVisible();
  await search.fill(tag);
  await expect(offerRow(page, name)).toBeVisible();
  await shot(page, 'offers-list');

  // Edit: the values come back; a new name is saved.
  await offerRow(page, name).getByRole('button', { name: labels.common.edit }).click();
  const edit = page.getByRole('dialog', { name: L.editOffer });
  await expect(edit.getByRole('textbox', { name: L.offerId })).toHaveValue(guruId);
  await expect(edit.getByRole('textbox', { name: L.maxUsers })).toHaveValue('7');
  await edit.getByRole('textbox', { name: labels.common.name }).fill('');
  await edit.getByRole('button', { name: labels.common.save }).click();
  await expect(edit.getByText(messages.nameRequired)).toBeVisible();
  await edit.getByRole('textbox', { name: labels.common.name }).fill(`Plano Pró ${tag}`);
  await edit.getByRole('button', { name: labels.common.save }).click();
  await expect(toast(page, M.offerSaved).last()).toBeVisible();
  await expect(edit).toBeHidden();
  await expect(offerRow(page, `Plano Pró ${tag}`)).toBeVisible();

  // A second offer with the same Guru offer id: the server's message on that field, nothing saved.
  await page.getByRole('button', { name: L.newOffer }).click();
  const dup = page.getByRole('dialog', { name: L.newOffer });
  await dup.getByRole('textbox', { name: labels.common.name }).fill(`Cópia ${tag}`);
  await dup.getByRole('textbox', { name: L.offerId }).fill(guruId);
  await dup.getByRole('button', { name: labels.common.save }).click();
  await expect(dup.getByText(M.offerIdTaken)).toBeVisible();
  await shot(page, 'offer-id-taken');
  await dup.getByRole('button', { name: labels.common.cancel }).click();
  await expect(offerRow(page, `Cópia ${tag}`)).toHaveCount(0);
});

test('an owner without the system role is refused and has no menu line', async ({ page, server }) => {
  await signedIn(page, server, 'dono@demo.com');
  await page.goto('/admin-ofertas');
  await expect(toast(page, messages.insufficientPermissions)).toBeVisible();
  await expect(page).toHaveURL(/\/atendimento$/);
  const menu = await mainMenu(page);
  await expect(menu.getByRole('link', { name: labels.common.service })).toBeVisible();
  await expect(menu.getByRole('link', { name: messages.offers })).toHaveCount(0);
  await expect(menu.getByRole('link', { name: adminMenuLabels.financial })).toHaveCount(0);
});
