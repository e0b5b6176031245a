// The list of a screen: a table on desktop, a column of cards on phones (360 px has no room for four
// columns), PAGE_SIZE rows a page (paged here, or by the server), and the loading, error and empty states of
// its query.
import {
  ActionIcon,
  Alert,
  Button,
  Center,
  Group,
  Loader,
  Pagination,
  Paper,
  Stack,
  Table,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { type ReactNode, useMemo, useState } from 'react';
import { errorMessage } from '@/app/lib/api';
import { PAGE_SIZE } from '@/shared/constants';
import { labels } from '@/shared/messages';
import { confirm } from './confirm';
import { useIsMobile } from './use-is-mobile';

export interface ListColumn<T> {
  label: string;
  render(row: T): ReactNode;
  /** The card's title on phones (one column per list). */
  primary?: boolean;
  /**
   * Where the cell's text may break in the table: between words (the default: names, messages; a word longer
   * than the whole column breaks too), anywhere (long unbroken text such as a URL), or never (a phone number,
   * a chip's name, a status badge).
   */
  wrap?: 'anywhere' | 'words' | 'never';
}

// 'break-word', unlike 'anywhere', leaves a column as wide as its longest word: names never break mid-word.
const WRAP_STYLE = {
  anywhere: { overflowWrap: 'anywhere' },
  words: { overflowWrap: 'break-word' },
  never: { whiteSpace: 'nowrap' },
} as const;

interface ListQuery<T> {
  data: readonly T[] | undefined;
  isPending: boolean;
  error: unknown;
  refetch(): unknown;
}

interface ListTableProps<T> {
  /** Accessible name of the table (or the list of cards). */
  label: string;
  query: ListQuery<T>;
  columns: ListColumn<T>[];
  rowKey(row: T): string;
  /** The row's action buttons (RowActions); null when the row offers none. */
  actions?(row: T): ReactNode;
  empty: string;
  /** The order of the rows (the server lists them by creation). */
  sort?(a: T, b: T): number;
  /** The row's picture: a first column on desktop, beside the card's title on phones. */
  avatar?(row: T): ReactNode;
  /** Paged by the server: `query.data` is the page shown, `total` the rows of all pages. */
  paging?: ServerPaging;
  /** The table's width below which it scrolls sideways (wider for more columns). */
  minWidth?: number;
}

interface ServerPaging {
  page: number;
  total: number;
  onChange(page: number): void;
}

const collator = new Intl.Collator('pt-BR', { sensitivity: 'base', numeric: true });
/** Alphabetical order as people in Brazil expect it (accents and case aside, numbers by value). */
export const byText = (a: string, b: string) => collator.compare(a, b);

export function ListTable<T>({
  label,
  query,
  columns,
  rowKey,
  actions,
  empty,
  sort,
  avatar,
  paging,
  minWidth = 560,
}: ListTableProps<T>) {
  const mobile = useIsMobile();
  const [ownPage, setOwnPage] = useState(1);
  const rows = useMemo(() => {
    const data = query.data ?? [];
    return sort ? [...data].sort(sort) : data;
  }, [query.data, sort]);
  const pages = Math.max(1, Math.ceil((paging ? paging.total : rows.length) / PAGE_SIZE));
  // After a delete the last page may be gone: show the new last one.
  const current = Math.min(paging ? paging.page : ownPage, pages);
  const setPage = paging ? paging.onChange : setOwnPage;
  const visible = paging ? rows : rows.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE);

  if (query.isPending)
    return (
      <Center py="xl">
        <Loader aria-label={labels.common.loading} />
      </Center>
    );
  if (query.error && rows.length === 0)
    return (
      <Alert color="red" role="alert">
        <Stack gap="xs" align="flex-start">
          <Text fz="sm">{errorMessage(query.error)}</Text>
          <Button size="xs" variant="light" color="red" onClick={() => void query.refetch()}>
            {labels.common.tryAgain}
          </Button>
        </Stack>
      </Alert>
    );
  if (rows.length === 0)
    return (
      <Paper withBorder p="xl">
        <Text c="dimmed" ta="center">
          {empty}
        </Text>
      </Paper>
    );

  const primary = columns.find((c) => c.primary) ?? columns[0];
  const details = columns.filter((c) => c !== primary);

  return (
    <Stack gap="md">
      {mobile ? (
        <Stack component="ul" aria-label={label} gap="sm" m={0} p={0} style={{ listStyle: 'none' }}>
          {visible.map((row) => {
            const rowActions = actions?.(row);
            const title = (
              <Text fw={600} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                {primary?.render(row)}
              </Text>
            );
            return (
              <Paper component="li" withBorder p="sm" key={rowKey(row)}>
                <Stack gap={6}>
                  {avatar ? (
                    <Group gap="sm" wrap="nowrap">
                      {avatar(row)}
                      {title}
                    </Group>
                  ) : (
                    title
                  )}
                  {details.map((c) => (
                    <Group key={c.label} gap={6} wrap="nowrap" align="flex-start">
                      <Text fz="sm" c="dimmed" style={{ flexShrink: 0 }}>
                        {c.label}:
                      </Text>
                      <Text component="div" fz="sm" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                        {c.render(row)}
                      </Text>
                    </Group>
                  ))}
                  {rowActions && (
                    <Group gap="xs" justify="flex-end" className="touch-row">
                      {rowActions}
                    </Group>
                  )}
                </Stack>
              </Paper>
            );
          })}
        </Stack>
      ) : (
        <Paper withBorder>
          <Table.ScrollContainer minWidth={minWidth}>
            <Table aria-label={label} highlightOnHover verticalSpacing="sm" horizontalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  {avatar && (
                    <Table.Th w={56}>
                      <VisuallyHidden>{labels.common.photo}</VisuallyHidden>
                    </Table.Th>
                  )}
                  {columns.map((c) => (
                    <Table.Th key={c.label}>{c.label}</Table.Th>
                  ))}
                  {actions && (
                    <Table.Th ta="right" w={1} style={{ whiteSpace: 'nowrap' }}>
                      {labels.common.actions}
                    </Table.Th>
                  )}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {visible.map((row) => (
                  <Table.Tr key={rowKey(row)}>
                    {avatar && <Table.Td>{avatar(row)}</Table.Td>}
                    {columns.map((c) => (
                      <Table.Td key={c.label} style={WRAP_STYLE[c.wrap ?? 'words']}>
                        {c.render(row)}
                      </Table.Td>
                    ))}
                    {actions && (
                      <Table.Td>
                        <Group gap={4} justify="flex-end" wrap="nowrap">
                          {actions(row)}
                        </Group>
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}
      {pages > 1 && (
        <Group justify="center">
          <Pagination
            total={pages}
            value={current}
            onChange={setPage}
            size={mobile ? 'sm' : 'md'}
            aria-label={labels.common.pagination}
            getItemProps={(p) => ({ 'aria-label': labels.common.page(p) })}
            getControlProps={(control) => ({
              'aria-label': control === 'previous' ? labels.common.previousPage : labels.common.nextPage,
            })}
          />
        </Group>
      )}
    </Stack>
  );
}

interface RowActionsProps {
  onEdit(): void;
  /** Called once the person has said Confirmar to `confirmDelete`. */
  onDelete(): void;
  /** The question Apagar asks first. */
  confirmDelete: { title: string; message: string };
}

/**
 * Editar and Apagar of a row: icon buttons with a tooltip on desktop, labelled buttons on phone cards.
 * Apagar asks before anything is deleted.
 */
export function RowActions({ onEdit, onDelete, confirmDelete }: RowActionsProps) {
  const mobile = useIsMobile();
  const askDelete = async () => {
    if (await confirm({ ...confirmDelete, danger: true })) onDelete();
  };
  if (mobile)
    return (
      <>
        <Button size="xs" variant="light" leftSection={<IconPencil size={14} aria-hidden />} onClick={onEdit}>
          {labels.common.edit}
        </Button>
        <Button
          size="xs"
          variant="light"
          color="red"
          leftSection={<IconTrash size={14} aria-hidden />}
          onClick={() => void askDelete()}
        >
          {labels.common.delete}
        </Button>
      </>
    );
  return (
    <>
      <Tooltip label={labels.common.edit} withArrow>
        <ActionIcon variant="subtle" aria-label={labels.common.edit} onClick={onEdit}>
          <IconPencil size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={labels.common.delete} withArrow>
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={labels.common.delete}
          onClick={() => void askDelete()}
        >
          <IconTrash size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
    </>
  );
}
