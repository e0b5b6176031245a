import { Badge, type BadgeVariant, Group, Text } from '@mantine/core';
import { useTags } from '@/app/lib/lists';
import type { Tag } from '@/shared/contract/configuration';
import { messages } from '@/shared/messages';

/** How many of a contact's tags show as chips; the rest are counted (+N) (spec 2 §9). */
export const TAGS_SHOWN = 3;

interface ChipsProps {
  /** The tags shown (TAGS_SHOWN at most). */
  shown: readonly Tag[];
  /** How many more the contact has: '+N'. */
  more: number;
  variant?: BadgeVariant;
  /** Onto more lines when the row is narrow (a table's cell), each chip whole; one line by default. */
  wrap?: boolean;
}

/**
 * Tags as chips on one line, each readable: a chip keeps its whole name up to a width, and never shrinks below
 * a few letters (a long name ends with an ellipsis, its full name in the title); then '+N'.
 */
export function TagChips({ shown, more, variant = 'filled', wrap = false }: ChipsProps) {
  return (
    <Group
      gap={4}
      wrap={wrap ? 'wrap' : 'nowrap'}
      mih={18}
      style={wrap ? undefined : { minWidth: 0, overflow: 'hidden' }}
    >
      {shown.map((t) => (
        <Badge
          key={t._id}
          color={t.color}
          variant={variant}
          autoContrast
          tt="none"
          size="sm"
          maw={120}
          miw={wrap ? 'max-content' : 44}
          title={t.name}
          style={{ flex: wrap ? 'none' : '0 1 auto' }}
        >
          {t.name}
        </Badge>
      ))}
      {more > 0 && (
        <Badge
          color="gray"
          variant={variant === 'filled' ? 'default' : variant}
          size="sm"
          title={messages.listMoreTags(more)}
          style={{ flex: 'none' }}
        >
          +{more}
        </Badge>
      )}
    </Group>
  );
}

interface Props {
  /** The tag ids of a contact; ids of tags the account no longer lists are passed over. */
  ids: readonly string[];
  /** How many show; the rest are counted (+N). */
  max?: number;
}

/** A contact's tags in a list row, in their colours (3 then '+N'); a dash when there are none. */
export function TagBadges({ ids, max = TAGS_SHOWN }: Props) {
  const tags = useTags();
  const known = ids.map((id) => tags.data?.find((t) => t._id === id)).filter((t): t is Tag => Boolean(t));
  if (!known.length) return <Text c="dimmed">—</Text>;
  return <TagChips shown={known.slice(0, max)} more={Math.max(0, known.length - max)} variant="light" wrap />;
}
