// The real-time follow dialog (spec 3 §4 'Scheduled-campaign real time'): a socket of its own on /sock/ joins
// the room account_campaign_<id> and takes its campaign_progress events; closing the dialog closes that
// socket, which leaves the room. The numbers are first read with get-campaign-realtime, and read again while
// the room is not joined (a lost connection).
import { Alert, Badge, Center, Group, Loader, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { callQuery } from '@/app/lib/query';
import { openRoomSocket } from '@/app/lib/room-socket';
import { useCurrentUser } from '@/app/lib/user';
import { Dialog } from '@/app/ui/Dialog';
import type { Campaign, CampaignProgress } from '@/shared/contract/campaigns';
import { campaignRoom, type ReceiveMessage } from '@/shared/contract/events';
import { formatDateTime } from '@/shared/format';
import { labels } from '@/shared/messages';
import { CAMPAIGN_STATUS_LABELS, campaignLabels, campaignMessages } from '@/shared/messages-campaigns';
import { campaignsQuery, progressPercent } from './campaign-data';
import { STATUS_COLORS } from './status';

const L = campaignLabels.campaigns;
/** How often the numbers are read again while the room is not joined. */
const UNJOINED_POLL_MS = 3000;

/** A campaign_progress event of this campaign, or null for any other event. */
const progressOf = (event: ReceiveMessage, id: string): CampaignProgress | null =>
  event.type === 'campaign_progress' && event.message._id === id ? event.message : null;

/** Joins the campaign's room while mounted; `true` once the server has said yes. */
function useCampaignRoom(id: string, onProgress: (p: CampaignProgress) => void) {
  const user = useCurrentUser();
  const server = user.account.server;
  const [joined, setJoined] = useState(false);
  useEffect(
    () =>
      openRoomSocket(server, campaignRoom(id), {
        joined: setJoined,
        event: (event) => {
          const progress = progressOf(event, id);
          if (progress) onProgress(progress);
        },
      }),
    [id, server, onProgress],
  );
  return joined;
}

export function FollowDialog({ campaign, onClose }: { campaign: Campaign | null; onClose(): void }) {
  return (
    <Dialog
      opened={campaign !== null}
      onClose={onClose}
      title={campaign ? L.followCampaign(campaign.name) : ''}
    >
      {campaign && <Follow campaign={campaign} />}
    </Dialog>
  );
}

function Follow({ campaign }: { campaign: Campaign }) {
  const client = useQueryClient();
  const realtime = callQuery('get-campaign-realtime', { _id: campaign._id });
  const [onProgress] = useState(() => (p: CampaignProgress) => {
    client.setQueryData(realtime.queryKey, p);
    // The list's sent count and status follow too.
    void client.invalidateQueries({ queryKey: campaignsQuery.queryKey });
  });
  const joined = useCampaignRoom(campaign._id, onProgress);
  const { data: progress, refetch } = useQuery({
    ...realtime,
    staleTime: 0,
    refetchInterval: joined ? false : UNJOINED_POLL_MS,
  });
  // What was sent between the first read and the join is read once more.
  useEffect(() => {
    if (joined) void refetch();
  }, [joined, refetch]);

  if (!progress)
    return (
      <Center py="md">
        <Loader aria-label={labels.common.loading} />
      </Center>
    );
  const done = progress.sent_messages + progress.failed_messages;
  const percent = progressPercent(progress);
  const sending = progress.status === 'started';
  // Paused, or no longer sending, the times ahead are not known.
  const when = (at: string | null) => (at && sending && !progress.paused ? formatDateTime(at) : L.noForecast);
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Badge color={STATUS_COLORS[progress.status]} variant="light">
          {CAMPAIGN_STATUS_LABELS[progress.status]}
        </Badge>
        <Text fz="sm" fw={600}>
          {L.progressText(done, progress.people_count)}
        </Text>
      </Group>
      <Progress.Root size="lg">
        <Progress.Section value={percent} animated={sending && !progress.paused} aria-label={L.progress} />
      </Progress.Root>
      {progress.paused && (
        <Alert color="orange" icon={<IconPlugConnectedX aria-hidden />} role="status" p="xs">
          <Text fz="sm">{campaignMessages.campaignChipPaused}</Text>
        </Alert>
      )}
      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm">
        <Figure label={L.sent} value={progress.sent_messages} />
        <Figure label={L.failures} value={progress.failed_messages} />
        <Figure label={L.remaining} value={progress.next_messages} />
        <Figure label={L.nextSending} value={when(progress.next_send_at)} />
        <Figure label={L.endForecast} value={when(progress.estimated_finish_time)} />
      </SimpleGrid>
    </Stack>
  );
}

/** One number of the dialog, its name above it (a term and its value for screen readers). */
export function Figure({ label, value }: { label: string; value: string | number }) {
  return (
    <Stack gap={0} role="group" aria-label={label}>
      <Text fz="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </Stack>
  );
}
