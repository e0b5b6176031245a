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
      title={campaign ? L.relatorioDaCampanha(campaign.name) : ''}
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
        <Loader aria-label={labels.common.carregando} />
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
        <Figure label={L.alcanceEstimado} value={r.people_count} />
        <Figure label={L.enviadas} value={r.sent} />
        <Figure label={L.entregues} value={r.delivered} />
        <Figure label={L.lidas} value={r.read} />
        <Figure label={L.responderam} value={r.replied} />
        <Figure label={L.falhas} value={r.failed} />
        <Figure label={L.ignoradas} value={r.skipped} />
        <Figure label={campaign.status === 'canceled' ? L.naoEnviadas : L.aguardando} value={r.waiting} />
        {campaign.official && <Figure label={O.cliques} value={r.clicked} />}
      </SimpleGrid>
      {campaign.official && <OfficialDetails report={r} />}
      <Group justify="flex-end">
        <Button
          leftSection={<IconDownload size={18} aria-hidden />}
          loading={exporting}
          onClick={() => void exportReport()}
        >
          {labels.flows.exportar}
        </Button>
      </Group>
    </Stack>
  );
}

/** Failures by reason and pricing categories, each a small two-column table. */
function OfficialDetails({ report }: { report: CampaignReport }) {
  const tables = [
    { title: O.falhasPorMotivo, rows: report.failed_by_reason.map((f) => [f.reason, f.count] as const) },
    { title: O.categoriasDeCobranca, rows: report.pricing.map((p) => [p.category, p.count] as const) },
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
              {O.semRegistros}
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
