// /contatos (spec 2 §2.1): the account's contacts, found by name or phone (1 s after typing), tags and
// creation date, 10 a page; ignore switch, row actions, import and export.
import '@mantine/dates/styles.css';
import {
  ActionIcon,
  Button,
  Drawer,
  Group,
  Indicator,
  Menu,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { DatePickerInput, type DatesRangeValue } from '@mantine/dates';
import { useDebouncedValue } from '@mantine/hooks';
import {
  IconAddressBook,
  IconDots,
  IconDotsVertical,
  IconDownload,
  IconFilter,
  IconPencil,
  IconSearch,
  IconTags,
  IconTrash,
  IconUpload,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { api } from '@/app/lib/api';
import { notifyError, notifySuccess } from '@/app/lib/notify';
import { useCurrentUser } from '@/app/lib/user';
import { confirm } from '@/app/ui/confirm';
import { displayName } from '@/app/ui/contact-name';
import { SaibaMais } from '@/app/ui/HelpDialog';
import { type ListColumn, ListTable } from '@/app/ui/ListTable';
import { PageHeader } from '@/app/ui/PageHeader';
import { PtBrDates } from '@/app/ui/PtBrDates';
import { TagBadges } from '@/app/ui/TagBadges';
import { TagSelect } from '@/app/ui/TagSelect';
import { useIsMobile } from '@/app/ui/use-is-mobile';
import { ContactNameDialog, ContactTagsDialog } from '@/app/widgets/contact/ContactDialogs';
import { ContactDrawer } from '@/app/widgets/contact/ContactDrawer';
import { PAGE_SIZE, SEARCH_DELAY_MS } from '@/shared/constants';
import type { ContactFilter } from '@/shared/contract/contacts';
import type { Contact } from '@/shared/contract/conversations';
import { formatPhone } from '@/shared/format';
import { labels, messages } from '@/shared/messages';
import { downloadContacts, refreshContacts, useContactsPage } from './contacts-data';
import { ImportDialog } from './ImportDialog';

export function ContactsPage() {
  const mobile = useIsMobile();
  const client = useQueryClient();
  const user = useCurrentUser();
  const canDelete = user.user_role === 'owner' || user.user_role === 'manager';
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), SEARCH_DELAY_MS);
  const [tagFilter, setTagFilter] = useState<string[]>([]);
  const [dates, setDates] = useState<DatesRangeValue<string>>([null, null]);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Contact | null>(null);
  const [tagging, setTagging] = useState<Contact | null>(null);
  const [drawer, setDrawer] = useState<string | null>(null);
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [filtersOpened, setFiltersOpened] = useState(false);

  const filter = useMemo<ContactFilter>(() => {
    const [from, to] = dates;
    return {
      query,
      tags: tagFilter,
      ...(from && { created_from: dayjs(from).startOf('day').format() }),
      ...(to && { created_to: dayjs(to).endOf('day').format() }),
    };
  }, [query, tagFilter, dates]);
  // A new filter starts from the first page.
  const [lastFilter, setLastFilter] = useState(filter);
  if (lastFilter !== filter) {
    setLastFilter(filter);
    setPage(1);
  }
  const list = useContactsPage(filter, page, PAGE_SIZE);
  const total = list.data?.total ?? 0;
  const refresh = () => void refreshContacts(client);

  async function toggleIgnore(c: Contact) {
    const ignore = !c.ignore;
    const ok = await confirm(
      ignore
        ? { title: messages.contactsIgnore, message: messages.contactsIgnoreConfirm(displayName(c)) }
        : {
            title: messages.contactsStopIgnoring,
            message: messages.contactsStopIgnoringConfirm(displayName(c)),
          },
    );
    if (!ok) return;
    try {
      await api('ignore-contact', { contact_id: c._id, ignore });
      notifySuccess(ignore ? messages.contactIgnored : messages.contactNoLongerIgnored);
      refresh();
    } catch (err) {
      notifyError(err);
    }
  }

  async function remove(c: Contact) {
    const ok = await confirm({
      title: messages.contactsDelete,
      message: messages.contactsDeleteConfirm(displayName(c)),
      danger: true,
    });
    if (!ok) return;
    try {
      await api('delete-contact', { contact_id: c._id });
      notifySuccess(messages.contactDeleted);
      refresh();
    } catch (err) {
      notifyError(err);
    }
  }

  async function exportAll() {
    setExporting(true);
    try {
      await downloadContacts(filter);
    } catch (err) {
      notifyError(err);
    } finally {
      setExporting(false);
    }
  }

  const ignoreSwitch = (c: Contact) => (
    <Switch
      checked={c.ignore}
      onChange={() => void toggleIgnore(c)}
      aria-label={messages.contactsIgnoreLabel(displayName(c))}
    />
  );
  const actions = (c: Contact) => (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" aria-label={messages.contactsActions(displayName(c))}>
          <IconDots size={18} aria-hidden />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconPencil size={16} aria-hidden />} onClick={() => setEditing(c)}>
          {messages.contactsEditName}
        </Menu.Item>
        <Menu.Item leftSection={<IconTags size={16} aria-hidden />} onClick={() => setTagging(c)}>
          {messages.contactsTags}
        </Menu.Item>
        <Menu.Item leftSection={<IconAddressBook size={16} aria-hidden />} onClick={() => setDrawer(c._id)}>
          {messages.contactData}
        </Menu.Item>
        {canDelete && (
          <Menu.Item
            color="red"
            leftSection={<IconTrash size={16} aria-hidden />}
            onClick={() => void remove(c)}
          >
            {messages.contactsDelete}
          </Menu.Item>
        )}
      </Menu.Dropdown>
    </Menu>
  );

  const columns: ListColumn<Contact>[] = [
    { label: labels.common.name, render: displayName, primary: true },
    { label: labels.common.tags, render: (c) => <TagBadges ids={c.tags} />, wrap: 'words' },
    { label: labels.common.phone, render: (c) => formatPhone(c.phone), wrap: 'never' },
    { label: labels.contacts.ignore, render: ignoreSwitch },
  ];

  const importButton = (
    <Button
      variant="default"
      leftSection={<IconUpload size={18} aria-hidden />}
      onClick={() => setImporting(true)}
    >
      {messages.contactsImport}
    </Button>
  );
  const exportButton = (
    <Button
      leftSection={<IconDownload size={18} aria-hidden />}
      onClick={() => void exportAll()}
      loading={exporting}
      disabled={total === 0}
    >
      {messages.contactsExport(total)}
    </Button>
  );
  const searchInput = (
    <TextInput
      label={mobile ? undefined : messages.contactsSearch}
      aria-label={mobile ? messages.contactsSearch : undefined}
      placeholder={messages.filterTextPlaceholder}
      leftSection={<IconSearch size={16} aria-hidden />}
      value={search}
      onChange={(e) => setSearch(e.currentTarget.value)}
      style={mobile ? { flex: 1, minWidth: 0 } : undefined}
      type="search"
    />
  );
  const filterFields = (
    <>
      <TagSelect
        label={messages.contactsTagFilter}
        value={tagFilter}
        onChange={setTagFilter}
        w={mobile ? '100%' : undefined}
        comboboxProps={{ withinPortal: true }}
      />
      <PtBrDates>
        <DatePickerInput
          type="range"
          label={messages.contactsDateFilter}
          placeholder={labels.contacts.dateRangePlaceholder}
          valueFormat="DD/MM/YYYY"
          value={dates}
          onChange={setDates}
          clearable
          allowSingleDateInRange
          getDayAriaLabel={(date) => dayjs(date).format('DD/MM/YYYY')}
          ariaLabels={messages.dateAriaLabels}
          w={mobile ? '100%' : undefined}
        />
      </PtBrDates>
    </>
  );
  const filtering = tagFilter.length > 0 || dates.some(Boolean);

  return (
    <>
      <PageHeader title={labels.common.contacts}>
        <SaibaMais topic="contatos" />
        {!mobile && importButton}
        {!mobile && exportButton}
      </PageHeader>
      <Stack gap="md">
        {mobile ? (
          // On a phone one search bar, the filters in a sheet and the buttons in a menu (as Atendimento): the
          // list starts high.
          <Group gap="xs" wrap="nowrap">
            {searchInput}
            <Indicator disabled={!filtering} size={10} offset={4} color="orange">
              <ActionIcon
                variant="default"
                size={40}
                aria-label={labels.contacts.filters}
                onClick={() => setFiltersOpened(true)}
              >
                <IconFilter size={20} aria-hidden />
              </ActionIcon>
            </Indicator>
            <Menu position="bottom-end" shadow="md">
              <Menu.Target>
                <ActionIcon variant="default" size={40} aria-label={labels.contacts.moreActions}>
                  <IconDotsVertical size={20} aria-hidden />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item
                  leftSection={<IconUpload size={16} aria-hidden />}
                  onClick={() => setImporting(true)}
                >
                  {messages.contactsImport}
                </Menu.Item>
                <Menu.Item
                  leftSection={<IconDownload size={16} aria-hidden />}
                  onClick={() => void exportAll()}
                  disabled={total === 0 || exporting}
                >
                  {messages.contactsExport(total)}
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        ) : (
          <Group gap="sm" align="flex-end" grow wrap="wrap">
            {searchInput}
            {filterFields}
          </Group>
        )}
        <Text fz="sm" role="status">
          {messages.contactsFound(total)}
        </Text>
        <ListTable
          label={labels.common.contacts}
          query={{
            data: list.data?.data,
            isPending: list.isPending,
            error: list.error,
            refetch: list.refetch,
          }}
          columns={columns}
          rowKey={(c) => c._id}
          actions={actions}
          empty={messages.contactsEmpty}
          paging={{ page, total, onChange: setPage }}
          minWidth={640}
        />
      </Stack>
      <ContactNameDialog
        contact={editing}
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={messages.contactsEditName}
        onSaved={refresh}
      />
      <ContactTagsDialog
        contact={tagging}
        opened={tagging !== null}
        onClose={() => setTagging(null)}
        title={messages.contactsTags}
        onSaved={refresh}
      />
      <ContactDrawer
        contactId={drawer}
        opened={drawer !== null}
        onClose={() => setDrawer(null)}
        onSaved={refresh}
      />
      <ImportDialog opened={importing} onClose={() => setImporting(false)} />
      {mobile && (
        <Drawer
          opened={filtersOpened}
          onClose={() => setFiltersOpened(false)}
          title={labels.contacts.filters}
          position="bottom"
          size="auto"
        >
          <Stack gap="md" pb="md">
            {filterFields}
            <Button onClick={() => setFiltersOpened(false)}>{labels.app.close}</Button>
          </Stack>
        </Drawer>
      )}
    </>
  );
}
