import { ActionIcon, Avatar, Button, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  type Icon,
  IconDeviceMobile,
  IconKey,
  IconPlus,
  IconSearch,
  IconSettings,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useCurrentUser } from '@/app/lib/user';
import { SaibaMais } from '@/app/ui/HelpDialog';
import { ListTable } from '@/app/ui/ListTable';
import { PageHeader } from '@/app/ui/PageHeader';
import { useIsMobile } from '@/app/ui/use-is-mobile';
import { SEARCH_DELAY_MS } from '@/shared/constants';
import type { Customer } from '@/shared/contract/admin';
import { formatDateTime } from '@/shared/format';
import { labels, messages } from '@/shared/messages';
import { adminLabels as L, SUBSCRIPTION_STATUS_LABELS } from '@/shared/messages-admin';
import { useCustomers } from './admin-calls';
import { ChangePasswordDialog } from './ChangePasswordDialog';
import { CreateAccountDialog } from './CreateAccountDialog';
import { EditAccountDialog } from './EditAccountDialog';
import { OfficialNumbersDialog } from './OfficialNumbersDialog';

const HELP = { id: 'admin-clientes', title: messages.customers, text: L.helpText };

type Open = { kind: 'password' | 'account' | 'numbers'; customer: Customer } | { kind: 'create' } | null;

/** A row's action: an icon with its tooltip on desktop, a labelled button on phone cards. */
function RowButton({ label, icon: I, onClick }: { label: string; icon: Icon; onClick(): void }) {
  const mobile = useIsMobile();
  if (mobile)
    return (
      <Button size="xs" variant="light" leftSection={<I size={14} aria-hidden />} onClick={onClick}>
        {label}
      </Button>
    );
  return (
    <Tooltip label={label} withArrow>
      <ActionIcon variant="subtle" aria-label={label} onClick={onClick}>
        <I size={18} aria-hidden />
      </ActionIcon>
    </Tooltip>
  );
}

/** /admin-clientes (spec 3 §2.4): every user of every account, for platform staff (customer_admin). */
export function AdminCustomersPage() {
  const user = useCurrentUser();
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), SEARCH_DELAY_MS);
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<Open>(null);
  // A new search starts from the first page.
  const [lastQuery, setLastQuery] = useState(query);
  if (lastQuery !== query) {
    setLastQuery(query);
    setPage(1);
  }
  const list = useCustomers(query, page);
  const rows = { ...list, data: list.data?.data };
  const close = () => setOpen(null);

  return (
    <>
      <PageHeader title={messages.customers}>
        <SaibaMais topic={HELP} />
        {user.admin && (
          <Button
            leftSection={<IconPlus size={18} aria-hidden />}
            onClick={() => setOpen({ kind: 'create' })}
          >
            {L.createAccount}
          </Button>
        )}
      </PageHeader>
      <Stack gap="md">
        <TextInput
          label={L.searchLabel}
          placeholder={L.searchPlaceholder}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          maw={420}
        />
        {list.data && (
          <Text fz="sm" c="dimmed" aria-live="polite">
            {L.total(list.data.total)}
          </Text>
        )}
        <ListTable
          label={messages.customers}
          query={rows}
          rowKey={(c) => c._id}
          empty={L.empty}
          minWidth={900}
          paging={{ page, total: list.data?.total ?? 0, onChange: setPage }}
          avatar={(c) => (
            <Avatar src={c.profile_picture} alt={L.photoOf(c.name)} radius="xl" size={36}>
              {c.name.slice(0, 1).toUpperCase()}
            </Avatar>
          )}
          columns={[
            { label: labels.common.name, primary: true, render: (c) => c.override_name ?? c.name },
            { label: labels.common.email, render: (c) => c.email, wrap: 'never' },
            { label: L.colRole, render: (c) => messages.roleLabels[c.user_role] },
            { label: L.colPlan, render: (c) => c.account.plan_id ?? L.none },
            {
              label: L.colPlanStatus,
              render: (c) => (
                <Text
                  span
                  fz="sm"
                  fw={600}
                  c={c.account.subscription_status === 'active' ? 'green.8' : 'dimmed'}
                >
                  {SUBSCRIPTION_STATUS_LABELS[c.account.subscription_status]}
                </Text>
              ),
            },
            {
              label: L.colCustomPlan,
              render: (c) => (c.account.custom_negotiation ? messages.yes : messages.no),
            },
            // The date alone: the table has nine columns to fit.
            {
              label: labels.flows.createdAt,
              render: (c) => formatDateTime(c.created).slice(0, 10),
              wrap: 'never',
            },
          ]}
          actions={(c) => (
            <>
              <RowButton
                label={labels.profile.changePassword}
                icon={IconKey}
                onClick={() => setOpen({ kind: 'password', customer: c })}
              />
              {c.user_role === 'owner' && (
                <>
                  <RowButton
                    label={L.editAccount}
                    icon={IconSettings}
                    onClick={() => setOpen({ kind: 'account', customer: c })}
                  />
                  <RowButton
                    label={L.configureNumbers}
                    icon={IconDeviceMobile}
                    onClick={() => setOpen({ kind: 'numbers', customer: c })}
                  />
                </>
              )}
            </>
          )}
        />
      </Stack>
      <CreateAccountDialog opened={open?.kind === 'create'} onClose={close} />
      <ChangePasswordDialog customer={open?.kind === 'password' ? open.customer : null} onClose={close} />
      <EditAccountDialog customer={open?.kind === 'account' ? open.customer : null} onClose={close} />
      <OfficialNumbersDialog customer={open?.kind === 'numbers' ? open.customer : null} onClose={close} />
    </>
  );
}
