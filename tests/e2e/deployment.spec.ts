// What depends on the deployment and the account's subscription: the plan link, help videos, past due.
import { messages } from '@/shared/messages';
import { calm, shot, signedIn } from './app';
import { type AppServer, expect, startServer, test } from './fixtures';

test.use({ ...calm });

let app: Awaited<ReturnType<typeof startServer>>;
test.beforeAll(async () => {
  app = await startServer({
    seed: 'past-due',
    env: {
      PLAN_MANAGEMENT_URL: 'https://planos.example.com/minha-conta',
      HELP_VIDEO_URL: 'https://videos.example.com/ajuda/{topic}',
    },
  });
});
test.afterAll(() => app?.stop());

async function openAs(page: import('@playwright/test').Page, server: AppServer, email: string, path: string) {
  await signedIn(page, server, email);
  await page.goto(`${server.url}${path}`);
}

test('a past-due subscription shows its dialog; the owner can pay the invoice', async ({ page }) => {
  await openAs(page, app.server, 'dono@demo.com', '/');
  const dialog = page.getByRole('dialog', { name: messages.pastDueTitle });
  await expect(dialog).toContainText(messages.pastDueText);
  await expect(dialog.getByRole('link', { name: 'Pagar fatura' })).toHaveAttribute(
    'href',
    'https://pagamentos.example.com/fatura/3',
  );
  await shot(page, 'past-due');
  await dialog.getByRole('button', { name: 'Entendi' }).click();
  await expect(dialog).toBeHidden();
  // Dismissed until the next check (every 3 hours), not on every screen.
  await page
    .getByRole('banner')
    .getByRole('link', { name: /Atendimentos humanos abertos/ })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Atendimento' })).toBeVisible();
  await expect(dialog).toHaveCount(0);
});

test('other roles see the warning and are asked to tell the owner', async ({ page }) => {
  await openAs(page, app.server, 'atendente@demo.com', '/atendimento');
  const dialog = page.getByRole('dialog', { name: messages.pastDueTitle });
  await expect(dialog).toContainText(messages.pastDueAskOwner);
  await expect(dialog.getByRole('link', { name: 'Pagar fatura' })).toHaveCount(0);
});

test('/minha-conta links to the configured plan management; help videos use the configured URL', async ({
  page,
}) => {
  await openAs(page, app.server, 'dono@demo.com', '/minha-conta');
  await page
    .getByRole('dialog', { name: messages.pastDueTitle })
    .getByRole('button', { name: 'Entendi' })
    .click();
  const link = page.getByRole('link', { name: 'Gerenciar meu plano' });
  await expect(link).toHaveAttribute('href', 'https://planos.example.com/minha-conta');
  await expect(link).toHaveAttribute('target', '_blank');
  await shot(page, 'account');

  await page.goto(`${app.server.url}/atendimento`);
  await page
    .getByRole('dialog', { name: messages.pastDueTitle })
    .getByRole('button', { name: 'Entendi' })
    .click();
  await page.getByRole('button', { name: 'Saiba mais' }).click();
  const help = page.getByRole('dialog', { name: 'Atendimento' });
  // Hosted elsewhere, the video plays in the dialog (tests/e2e/help.spec.ts) and can open in a new tab.
  await expect(help.getByRole('link', { name: messages.helpVideoOpen })).toHaveAttribute(
    'href',
    'https://videos.example.com/ajuda/atendimento',
  );
});
