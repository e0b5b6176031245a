import { ActionIcon, Badge, Button, TextInput, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPencil, IconPlus, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { SaibaMais } from '@/app/ui/HelpDialog';
import { ListTable } from '@/app/ui/ListTable';
import { PageHeader } from '@/app/ui/PageHeader';
import { useEditDialog } from '@/app/ui/use-edit-dialog';
import { useIsMobile } from '@/app/ui/use-is-mobile';
import type { GuruOffer } from '@/shared/contract/billing';
import { labels, messages } from '@/shared/messages';
import { offerLabels as L } from '@/shared/messages-billing';
import { OfferDialog } from './OfferDialog';
import { useOffers } from './offers';

const HELP = { id: 'admin-ofertas', title: messages.offers, text: L.helpText };

/** The pause after the last key before the list is searched again. */
const SEARCH_DEBOUNCE_MS = 300;

/** /admin-ofertas (spec 3 §2.5): the Guru offers, searched by name ignoring accents, new and edit. */
export function OffersPage() {
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const offers = useOffers(query);
  const dialog = useEditDialog<GuruOffer>();
  const mobile = useIsMobile();

  return (
    <>
      <PageHeader title={messages.offers}>
        <SaibaMais topic={HELP} />
        <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={dialog.openNew}>
          {L.newOffer}
        </Button>
      </PageHeader>
      <TextInput
        label={L.search}
        placeholder={L.searchPlaceholder}
        leftSection={<IconSearch size={16} aria-hidden />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        type="search"
        mb="md"
        maw={420}
      />
      <ListTable
        label={messages.offers}
        query={offers}
        rowKey={(o) => o._id}
        empty={query ? L.emptySearch : L.empty}
        columns={[
          { label: labels.common.name, primary: true, render: (o) => o.name },
          { label: L.offerId, wrap: 'anywhere', render: (o) => o.offer_id || '—' },
          { label: L.columnLimits, render: (o) => L.limitsSummary(o.max_channels, o.max_users, o.max_flows) },
          {
            label: labels.common.campaigns,
            wrap: 'never',
            render: (o) => (
              <Badge variant="light" color={o.campaigns_enabled ? 'green' : 'gray'}>
                {o.campaigns_enabled ? messages.yes : messages.no}
              </Badge>
            ),
          },
        ]}
        actions={(o) =>
          mobile ? (
            <Button
              size="xs"
              variant="light"
              leftSection={<IconPencil size={14} aria-hidden />}
              onClick={() => dialog.openEdit(o)}
            >
              {labels.common.edit}
            </Button>
          ) : (
            <Tooltip label={labels.common.edit} withArrow>
              <ActionIcon variant="subtle" aria-label={labels.common.edit} onClick={() => dialog.openEdit(o)}>
                <IconPencil size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
          )
        }
      />
      <OfferDialog dialog={dialog} />
    </>
  );
}
