import { Badge, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { callQuery } from '@/app/lib/query';
import type { Tag } from '@/shared/contract/configuration';

interface Props {
  /** The tag ids of a contact; ids of tags the account no longer lists are passed over. */
  ids: readonly string[];
  /** How many show; the rest are counted (+N). */
  max?: number;
}

/** A contact's tags in a list row, in their colours; a dash when there are none. */
export function TagBadges({ ids, max = Number.POSITIVE_INFINITY }: Props) {
  const tags = useQuery(callQuery('get-tags-by-user'));
  const known = ids.map((id) => tags.data?.find((t) => t._id === id)).filter((t): t is Tag => Boolean(t));
  if (!known.length) return <Text c="dimmed">—</Text>;
  return (
    <Group gap={4}>
      {known.slice(0, max).map((t) => (
        <Badge key={t._id} color={t.color} variant="light" tt="none" size="sm" miw="max-content">
          {t.name}
        </Badge>
      ))}
      {known.length > max && (
        <Badge color="gray" variant="light" size="sm">
          +{known.length - max}
        </Badge>
      )}
    </Group>
  );
}
