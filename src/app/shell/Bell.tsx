import { ActionIcon, Indicator } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { ROUTE_NAMES } from '@/app/lib/access';
import { onConversationEvent } from '@/app/lib/conversation-events';
import { callQuery } from '@/app/lib/query';
import { Tip } from '@/app/ui/Tip';
import { BADGE_CAP } from '@/shared/constants';
import { badgeCount } from '@/shared/format';

export const openManualCountQuery = callQuery('get-open-manual-conversation-count');

/** Conversation events come in bursts: the count is asked again once they settle for a second. */
const RECOUNT_DELAY_MS = 1000;

/** Keeps the count live: a conversation that opens, closes, changes department or mode asks for it again. */
function useLiveCount() {
  const client = useQueryClient();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = onConversationEvent((event) => {
      if (event.type === 'message_read' || event.type === 'message_updated' || event.type === 'new_message')
        return;
      clearTimeout(timer);
      timer = setTimeout(
        () => void client.invalidateQueries({ queryKey: openManualCountQuery.queryKey }),
        RECOUNT_DELAY_MS,
      );
    });
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, [client]);
}

/** The bell: open human conversations, '9+' above nine; it leads to Atendimento. */
export function Bell() {
  const { data } = useQuery({ ...openManualCountQuery, refetchInterval: 60_000 });
  useLiveCount();
  const count = data?.open_manual_count ?? 0;
  const label = `Atendimentos humanos abertos: ${count}`;
  return (
    <Tip label={label}>
      <Indicator
        label={badgeCount(count, BADGE_CAP)}
        disabled={count === 0}
        color="red"
        size={18}
        offset={6}
        inline
      >
        <ActionIcon
          component={Link}
          to={ROUTE_NAMES.Atendimento}
          variant="subtle"
          color="gray"
          size="lg"
          aria-label={label}
        >
          <IconBell size={22} aria-hidden />
        </ActionIcon>
      </Indicator>
    </Tip>
  );
}
