// /webhooks (spec 3 §2.13): the account's webhooks with name, chip, status and actions. 'Novo webhook'
// creates one (status test, telefone not yet mapped) and opens its edit page (spec 3 §7: upsertedId).
import { Alert, Anchor, Badge, Button, Stack, Text } from '@mantine/core';
import { IconKey, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useCurrentUser } from '@/app/lib/user';
import { SaibaMais } from '@/app/ui/HelpDialog';
import { byText, ListTable, RowActions } from '@/app/ui/ListTable';
import { PageHeader } from '@/app/ui/PageHeader';
import { PlanGate } from '@/app/widgets/PlanGate';
import type { Webhook, WebhookStatus } from '@/shared/contract/webhooks';
import { newId } from '@/shared/ids';
import { labels, messages } from '@/shared/messages';
import { webhookLabels as L } from '@/shared/messages-webhooks';
import { useCreateWebhook, useDeleteWebhook, webhookPath, webhooksQuery } from './webhook-data';

const HELP = { id: 'webhooks', title: L.webhooks, text: L.helpText };
export const STATUS_COLORS: Record<WebhookStatus, string> = {
  active: 'green',
  inactive: 'gray',
  test: 'yellow',
};
const nameOf = (w: Pick<Webhook, 'name'>) => w.name || L.noName;

export function WebhooksPage() {
  return (
    <PlanGate title={L.webhooks} plan="integrations">
      <Webhooks />
    </PlanGate>
  );
}

/** Webhooks also need the account's API key (spec 3 §6): without one, a notice leads to /api. */
export function ApiKeyNotice() {
  const user = useCurrentUser();
  if (user.account.api_key) return null;
  return (
    <Alert color="yellow" icon={<IconKey aria-hidden />} title={L.apiKeyRequired} role="status" mb="md">
      <Stack gap="xs" align="flex-start">
        <Text fz="sm">{L.apiKeyNotice}</Text>
        <Button component={Link} to="/api" size="xs" variant="light">
          {L.goToApi}
        </Button>
      </Stack>
    </Alert>
  );
}

function Webhooks() {
  const user = useCurrentUser();
  const webhooks = useQuery(webhooksQuery);
  const navigate = useNavigate();
  const edit = (id: string) => void navigate({ href: webhookPath(id) });
  const create = useCreateWebhook(edit);
  const remove = useDeleteWebhook();
  return (
    <>
      <PageHeader title={L.webhooks}>
        <SaibaMais topic={HELP} />
        <Button
          leftSection={<IconPlus size={18} aria-hidden />}
          loading={create.isPending}
          disabled={!user.account.api_key}
          onClick={() => create.mutate({ _id: newId() })}
        >
          {L.newWebhook}
        </Button>
      </PageHeader>
      <ApiKeyNotice />
      <ListTable
        label={L.webhooks}
        query={webhooks}
        rowKey={(w) => w._id}
        sort={(a, b) => byText(nameOf(a), nameOf(b))}
        empty={L.noWebhook}
        columns={[
          {
            label: labels.common.name,
            primary: true,
            render: (w) => (
              <Anchor
                href={webhookPath(w._id)}
                inherit
                onClick={(e) => {
                  // A new tab (ctrl/cmd/middle click) is the browser's; a plain click stays in the app.
                  if (e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || e.button !== 0) return;
                  e.preventDefault();
                  edit(w._id);
                }}
              >
                {nameOf(w)}
              </Anchor>
            ),
          },
          { label: messages.chip, render: (w) => w.chip?.name ?? L.noChip, wrap: 'never' },
          {
            label: labels.common.status,
            render: (w) => (
              <Badge color={STATUS_COLORS[w.status]} variant="light">
                {L.statusLabels[w.status]}
              </Badge>
            ),
            wrap: 'never',
          },
        ]}
        actions={(w) => (
          <RowActions
            onEdit={() => edit(w._id)}
            onDelete={() => remove.mutate(w)}
            confirmDelete={{ title: L.deleteWebhook, message: L.confirmDelete(nameOf(w)) }}
          />
        )}
      />
    </>
  );
}
