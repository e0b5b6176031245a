// A campaign's report (our addition, issue 18): how many people were sent, delivered, read, failed, skipped,
// replied or still wait, from the delivery receipts; Exportar downloads one row per person as xlsx. An official
// campaign's also shows its quick-reply taps, failures by reason and Meta's pricing categories (issue 19).
import { Alert, Button, Center, Group, Loader, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { errorMessage } from '@/app/lib/api';
import { notifyError } from '@/app/lib/notify';
import { Dialog } from '@/app/ui/Dialog';
import type { Campaign, CampaignReport } from '@/shared/contract/campaigns';
import { labels } from '@/shared/messages';
import { campaignLabels, officialCampaignLabels as O } from '@/shared/messages-campaigns';
import { downloadCampaignReport, useCampaignReport } from './campaign-data';
import { Figure } from './FollowDialog';

const L = campaignLabels.campaigns;

export function ReportDialog({ campaign, onClose }: { campaign: Campaign | null; onClose(): void }) {
  return (
    <Dialog
      opened={campaign !== null}
      onClose={onClose}
      title={campaign ? L.campaignReport(campaign.name) : ''}
    >
      {campaign && <Report campaign={campaign} />}
    </Dialog>
  );
}

function Report({ campaign }: { campaign: Campaign }) {
  const report = useCampaignReport(campaign._id);
  const [exporting, setExporting] = useState(false);

  async function exportReport() {
    setExporting(true);
    try {
      await downloadCampaignReport(campaign._id);
    } catch (err) {
      notifyError(err);
    } finally {
      setExporting(false);
    }
  }

  if (report.isPending)
    return (
      <Center py="md">
        <Loader aria-label={labels.common.loading} />
      </Center>
    );
  if (!report.data)
    return (
      <Alert color="red" role="alert">
        {errorMessage(report.error)}
      </Alert>
    );
  const r = report.data;
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
        <Figure label={L.estimatedReach} value={r.people_count} />
        <Figure label={L.sent} value={r.sent} />
        <Figure label={L.delivered} value={r.delivered} />
        <Figure label={L.read} value={r.read} />
        <Figure label={L.answered} value={r.replied} />
        <Figure label={L.failures} value={r.failed} />
        <Figure label={L.ignored} value={r.skipped} />
        <Figure label={campaign.status === 'canceled' ? L.notSent : L.waiting} value={r.waiting} />
        {campaign.official && <Figure label={O.clicks} value={r.clicked} />}
      </SimpleGrid>
      {campaign.official && <OfficialDetails report={r} />}
      <Group justify="flex-end">
        <Button
          leftSection={<IconDownload size={18} aria-hidden />}
          loading={exporting}
          onClick={() => void exportReport()}
        >
          {labels.flows.export}
        </Button>
      </Group>
    </Stack>
  );
}

/** Failures by reason and pricing categories, each a small two-column table. */
function OfficialDetails({ report }: { report: CampaignReport }) {
  const tables = [
    { title: O.failuresByReason, rows: report.failed_by_reason.map((f) => [f.reason, f.count] as const) },
    { title: O.billingCategories, rows: report.pricing.map((p) => [p.category, p.count] as const) },
  ];
  return (
    <Stack gap="sm">
      {tables.map((t) => (
        <Stack gap={4} key={t.title}>
          <Text fw={600} fz="sm">
            {t.title}
          </Text>
          {t.rows.length === 0 ? (
            <Text fz="sm" c="dimmed">
              {O.noRecords}
            </Text>
          ) : (
            <Table aria-label={t.title} withTableBorder fz="sm">
              <Table.Tbody>
                {t.rows.map(([name, count]) => (
                  <Table.Tr key={name}>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{name}</Table.Td>
                    <Table.Td ta="right" w={80}>
                      {count}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Stack>
      ))}
    </Stack>
  );
}
