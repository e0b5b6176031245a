// /templates (spec 3 §2.14): pick an official number, then its message templates as Meta holds them (name,
// category, status), with Meta's template manager and library a click away (new tab). Novo template opens
// 'Novo template de mensagem'; delete asks first and is disabled for Meta's default templates. Status
// changes arrive by webhook (template_status) and change the table at once. Plan: official campaigns.
import { ActionIcon, Alert, Badge, Button, Group, Select, Stack, Text, Tooltip } from '@mantine/core';
import { IconExternalLink, IconLock, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { onAccountEvent } from '@/app/lib/account-events';
import { useChips } from '@/app/lib/lists';
import { useCurrentUser } from '@/app/lib/user';
import { confirm } from '@/app/ui/confirm';
import { SaibaMais } from '@/app/ui/HelpDialog';
import { ListTable } from '@/app/ui/ListTable';
import { PageHeader } from '@/app/ui/PageHeader';
import { useIsMobile } from '@/app/ui/use-is-mobile';
import type { MessageTemplate } from '@/shared/contract/templates';
import { labels } from '@/shared/messages';
import { campaignMessages, templateLabels as L } from '@/shared/messages-campaigns';
import { planAllows, planOfAnswer } from '@/shared/rules/access';
import { metaTemplateLibrary, metaTemplateManager } from '@/shared/rules/template';
import { TemplateDialog } from './TemplateDialog';
import { applyTemplateStatus, useDeleteTemplate, useTemplates } from './template-data';

const HELP = { id: 'templates', title: L.templates, text: L.helpText };

const STATUS_COLORS: Record<string, string> = {
  APPROVED: 'green',
  PENDING: 'yellow',
  REJECTED: 'red',
  PAUSED: 'orange',
  DISABLED: 'gray',
};

export function TemplatesPage() {
  const user = useCurrentUser();
  const allowed = planAllows(planOfAnswer(user.account), { plan: 'official-campaigns' });
  if (!allowed)
    return (
      <>
        <PageHeader title={L.templates}>
          <SaibaMais topic={HELP} />
        </PageHeader>
        <Alert color="yellow" icon={<IconLock aria-hidden />} role="status">
          {campaignMessages.officialNotInPlan}
        </Alert>
      </>
    );
  return <Templates />;
}

function Templates() {
  const chips = useChips();
  const official = useMemo(() => (chips.data ?? []).filter((c) => c.official && !c.filed), [chips.data]);
  const [picked, setPicked] = useState<string | null>(null);
  // One official number: it is the one.
  const chipId = picked ?? (official.length === 1 ? (official[0]?._id ?? null) : null);
  const chip = official.find((c) => c._id === chipId) ?? null;
  const templates = useTemplates(chip?._id ?? null);
  const remove = useDeleteTemplate(chip?._id ?? '');
  const client = useQueryClient();
  const [creating, setCreating] = useState(0);
  const mobile = useIsMobile();

  useEffect(() => {
    if (!chip?.waba) return;
    const { _id, waba } = chip;
    return onAccountEvent((event) => {
      if (event.type === 'template_status' && event.message.waba === waba)
        applyTemplateStatus(client, _id, event.message);
    });
  }, [chip, client]);

  async function askDelete(t: MessageTemplate) {
    if (!chip) return;
    if (await confirm({ title: L.deleteTitle, message: L.confirmDelete(t.name), danger: true }))
      remove.mutate({ chip: chip._id, name: t.name, filed: true });
  }

  const links = chip?.waba ? (
    <>
      <Button
        component="a"
        href={metaTemplateManager(chip.waba)}
        target="_blank"
        rel="noopener noreferrer"
        variant="default"
        leftSection={<IconExternalLink size={16} aria-hidden />}
      >
        {L.manager}
      </Button>
      <Button
        component="a"
        href={metaTemplateLibrary(chip.waba)}
        target="_blank"
        rel="noopener noreferrer"
        variant="default"
        leftSection={<IconExternalLink size={16} aria-hidden />}
      >
        {L.library}
      </Button>
    </>
  ) : null;

  return (
    <>
      <PageHeader title={L.templates}>
        <SaibaMais topic={HELP} />
        {!mobile && links}
        <Button
          leftSection={<IconPlus size={18} aria-hidden />}
          disabled={!chip}
          onClick={() => setCreating((n) => n + 1)}
        >
          {L.newTemplate}
        </Button>
      </PageHeader>
      <Stack gap="md">
        {chips.data && official.length === 0 ? (
          <Alert color="blue" role="status">
            {L.noNumbers}
          </Alert>
        ) : (
          <Select
            label={L.number}
            placeholder={L.chooseNumber}
            data={official.map((c) => ({
              value: c._id,
              label: c.display_phone_number ? `${c.name} (${c.display_phone_number})` : c.name,
            }))}
            value={chipId}
            onChange={setPicked}
            allowDeselect={false}
            maw={mobile ? undefined : 420}
          />
        )}
        {mobile && links && <Group gap="xs">{links}</Group>}
        {!chip && official.length > 0 && <Text c="dimmed">{L.chooseNumber}</Text>}
        {chip && (
          <ListTable
            label={L.templates}
            query={templates}
            rowKey={(t) => `${t.name}:${t.language}`}
            empty={L.noTemplate}
            minWidth={640}
            columns={[
              { label: labels.common.name, primary: true, render: (t) => t.name, wrap: 'anywhere' },
              { label: L.category, render: (t) => L.categories[t.category] ?? t.category, wrap: 'never' },
              { label: L.language, render: (t) => t.language, wrap: 'never' },
              {
                label: labels.common.status,
                render: (t) => (
                  <Stack gap={2} align="flex-start">
                    <Badge color={STATUS_COLORS[t.status] ?? 'gray'} variant="light" miw="max-content">
                      {L.statuses[t.status] ?? t.status}
                    </Badge>
                    {t.reason && (
                      <Text fz="xs" c="dimmed">
                        {L.reason(t.reason)}
                      </Text>
                    )}
                  </Stack>
                ),
              },
            ]}
            actions={(t) => <DeleteAction template={t} onDelete={() => void askDelete(t)} />}
          />
        )}
      </Stack>
      {chip && creating > 0 && (
        <TemplateDialog key={creating} chip={chip._id} onClose={() => setCreating(0)} />
      )}
    </>
  );
}

/** Apagar; Meta's default templates cannot be deleted, and say why. */
function DeleteAction({ template, onDelete }: { template: MessageTemplate; onDelete(): void }) {
  const mobile = useIsMobile();
  const label = template.default ? L.defaultNoDeletes : labels.common.delete;
  if (mobile)
    return (
      <Button
        size="xs"
        variant="light"
        color="red"
        leftSection={<IconTrash size={14} aria-hidden />}
        disabled={template.default}
        onClick={onDelete}
        aria-label={`${labels.common.delete} ${template.name}`}
      >
        {labels.common.delete}
      </Button>
    );
  return (
    <Tooltip label={label}>
      <ActionIcon
        variant="subtle"
        color="red"
        aria-label={`${labels.common.delete} ${template.name}`}
        disabled={template.default}
        onClick={onDelete}
      >
        <IconTrash size={18} aria-hidden />
      </ActionIcon>
    </Tooltip>
  );
}
