import { ActionIcon, Indicator, Tooltip } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { BADGE_CAP } from '../../shared/constants';
import { badgeCount } from '../../shared/format';
import { ROUTE_NAMES } from '../lib/access';
import { callQuery } from '../lib/query';

export const openManualCountQuery = callQuery('get-open-manual-conversation-count');

/** The bell: open human conversations, '9+' above nine; it leads to Atendimento. */
export function Bell() {
  const { data } = useQuery({ ...openManualCountQuery, refetchInterval: 60_000 });
  const count = data?.open_manual_count ?? 0;
  const label = `Atendimentos humanos abertos: ${count}`;
  return (
    <Tooltip label={label}>
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
    </Tooltip>
  );
}
