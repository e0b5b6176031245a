// Atendimento (spec 2 §2.3): the conversation list on the left and the open conversation on the right; on a
// phone the conversation is a full-screen dialog over the list (which stays mounted, so it keeps its scroll).
// The open conversation is the URL's `c`, so a reload or a notification opens it; the list's filter is kept
// per user in localStorage. On a phone, opening pushes a history entry: the back button or gesture closes it.
import { ActionIcon, Box, Button, Center, Group, Paper, Stack, Text } from '@mantine/core';
import { IconFilter, IconMessagePlus, IconMessages, IconSettings } from '@tabler/icons-react';
import { useNavigate, useRouter, useSearch } from '@tanstack/react-router';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useCurrentUser } from '@/app/lib/user';
import { afterStepsBack, entryIndex, leaveEntry } from '@/app/ui/back-stack';
import { displayName } from '@/app/ui/contact-name';
import { SaibaMais } from '@/app/ui/HelpDialog';
import { deferredPart, lazyDialog, preloadWhenIdle } from '@/app/ui/lazy-dialog';
import { PageHeader } from '@/app/ui/PageHeader';
import { useIsMobile } from '@/app/ui/use-is-mobile';
import { labels, messages } from '@/shared/messages';
import { departmentLimit, subjectOfAnswer } from '@/shared/rules/access';
import { useConversation } from './data/conversations';
import { ConversationList } from './list/ConversationList';
import { loadFilter, saveFilter } from './list/filter-store';
import type { ConversationFilter } from './list/list-view';
import { defaultFilter, filterIsActive } from './list/list-view';
import { useListRealtime } from './list/use-list-realtime';

// Loaded when first needed: the list is the first paint; the pane (composer, message list, conversation
// menu) loads when a conversation opens, and is preloaded once the list has painted.
const ConversationPane = lazyDialog(
  () => import('./pane/ConversationPane').then((m) => m.ConversationPane),
  () => true,
);
// The gear's popover (with @floating-ui) loads after the first paint; the gear paints at once.
const SettingsMenu = deferredPart<{ defaultOpened?: boolean }>(
  () => import('./list/SettingsMenu').then((m) => m.SettingsMenu),
  ({ onIntent, onOpen }) => (
    <ActionIcon
      variant="default"
      size="lg"
      aria-label={messages.listSettings}
      onPointerEnter={onIntent}
      onFocus={onIntent}
      // As the user's menu (TopBar): a press opens it even if the popover's code lands before the release.
      onPointerDown={onOpen}
      onClick={onOpen}
    >
      <IconSettings size={20} aria-hidden />
    </ActionIcon>
  ),
);
const MobilePane = lazyDialog(
  () => import('./pane/MobilePane').then((m) => m.MobilePane),
  (props) => props.conversationId !== null,
);
// Pointing at, touching or focusing their button starts the load.
const NewConversationDialog = lazyDialog(() =>
  import('./actions/NewConversationDialog').then((m) => m.NewConversationDialog),
);
const FilterSheet = lazyDialog(() => import('./list/FilterSheet').then((m) => m.FilterSheet));
const preloadNew = () => void NewConversationDialog.preload().catch(() => undefined);
const preloadFilters = () => void FilterSheet.preload().catch(() => undefined);

/** The screen's height under the top bar, inside the shell's padding: the list scrolls, not the page. */
const SCREEN_HEIGHT =
  'calc(100dvh - var(--app-shell-header-offset, 0rem) - 2 * var(--app-shell-padding, 0rem))';

function useFilter() {
  const user = useCurrentUser();
  const fallback = useMemo(
    () => defaultFilter({ user_role: user.user_role, departments: user.departments }),
    [user.user_role, user.departments],
  );
  const [filter, setFilter] = useState(() => {
    const stored = loadFilter(user._id, fallback);
    // An attendant's department list may have changed since: keep only the departments they still serve.
    const limit = departmentLimit(subjectOfAnswer(user));
    if (!limit) return stored;
    const departments = stored.departments.filter((d) => limit.includes(d));
    return { ...stored, departments: departments.length ? departments : fallback.departments };
  });
  const apply = useCallback(
    (next: ConversationFilter) => {
      const clean = {
        ...next,
        text: next.text.trim(),
        types: next.types.length ? next.types : fallback.types,
        departments: next.departments.length ? next.departments : fallback.departments,
      };
      saveFilter(user._id, clean);
      setFilter(clean);
    },
    [user._id, fallback],
  );
  return { user, filter, fallback, apply, active: filterIsActive(filter, fallback) };
}

/** The selected conversation in the URL: desktop replaces the entry, a phone pushes one for its back button. */
function useSelection(mobile: boolean) {
  const navigate = useNavigate();
  const router = useRouter();
  const { c: selectedId = null } = useSearch({ from: '/menu/atendimento' });
  // The history entry the pane pushed (its index), if it did.
  const pushed = useRef<number | null>(null);
  useEffect(() => {
    if (!selectedId) pushed.current = null;
  }, [selectedId]);

  const select = useCallback(
    (id: string) => {
      const push = mobile && !selectedId;
      if (push) pushed.current = entryIndex(router.history) + 1;
      void navigate({
        to: '/atendimento',
        search: { c: id },
        replace: !push,
        resetScroll: false,
      });
    },
    [mobile, selectedId, navigate, router],
  );
  const close = useCallback(() => {
    if (pushed.current !== null) {
      // With the dialogs open over it (their entries are above the pane's), in one step.
      leaveEntry(router.history, pushed.current);
      pushed.current = null;
    } else {
      afterStepsBack(
        () => void navigate({ to: '/atendimento', search: {}, replace: true, resetScroll: false }),
      );
    }
  }, [navigate, router]);
  return { selectedId, select, close };
}

export function AttendancePage() {
  const mobile = useIsMobile();
  const { user, filter, fallback, apply, active } = useFilter();
  const { selectedId, select, close } = useSelection(mobile);
  const [filtersOpened, setFiltersOpened] = useState(false);
  const selected = useConversation(selectedId);
  useListRealtime({ sound: !user.config.disable_notification_sound, userId: user._id, onOpen: select });
  useEffect(() => preloadWhenIdle(mobile ? MobilePane : ConversationPane), [mobile]);

  const applyAndClose = (next: ConversationFilter) => {
    apply(next);
    setFiltersOpened(false);
  };

  const [newOpened, setNewOpened] = useState(false);
  const newConversation = mobile ? (
    <ActionIcon
      variant="default"
      size="lg"
      aria-label={messages.newConversationPushTitle}
      onPointerEnter={preloadNew}
      onFocus={preloadNew}
      onClick={() => setNewOpened(true)}
    >
      <IconMessagePlus size={20} aria-hidden />
    </ActionIcon>
  ) : (
    <Button
      variant="default"
      leftSection={<IconMessagePlus size={18} aria-hidden />}
      onPointerEnter={preloadNew}
      onFocus={preloadNew}
      onClick={() => setNewOpened(true)}
    >
      {messages.newConversationPushTitle}
    </Button>
  );
  const filterButton = (
    <Button
      variant="light"
      leftSection={<IconFilter size={18} aria-hidden />}
      onPointerEnter={preloadFilters}
      onFocus={preloadFilters}
      onClick={() => setFiltersOpened(true)}
      style={mobile ? { flex: 1 } : undefined}
    >
      {messages.listSearchOrFilter}
    </Button>
  );
  // The top buttons: beside the title on a desktop, in a row over the list on a phone.
  const topButtons = mobile ? (
    <Group gap="xs" wrap="nowrap" p="xs">
      {filterButton}
      {newConversation}
      <SettingsMenu />
    </Group>
  ) : (
    <>
      {filterButton}
      {newConversation}
      <SettingsMenu />
    </>
  );

  const list = (
    <Paper
      withBorder
      w={mobile ? '100%' : 380}
      h="100%"
      style={{ display: 'flex', flexDirection: 'column', flex: 'none', overflow: 'hidden' }}
    >
      {mobile && topButtons}
      {active && (
        <Group
          role="status"
          justify="space-between"
          gap="xs"
          wrap="nowrap"
          px="sm"
          py={4}
          bg="var(--mantine-color-yellow-light)"
        >
          <Text size="sm" fw={500}>
            {messages.listFiltersActive}
          </Text>
          <Button size="compact-sm" variant="subtle" onClick={() => apply(fallback)}>
            {messages.listClearFilters}
          </Button>
        </Group>
      )}
      <Box style={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}>
        <ConversationList filter={filter} selectedId={selectedId} onSelect={select} />
      </Box>
    </Paper>
  );

  return (
    <Stack gap={0} h={SCREEN_HEIGHT} mih={360}>
      <PageHeader title={labels.common.service}>
        {!mobile && topButtons}
        <SaibaMais topic="atendimento" />
      </PageHeader>
      <Group gap="md" align="stretch" wrap="nowrap" style={{ flex: 1, minHeight: 0 }}>
        {list}
        {!mobile && (
          <Paper withBorder h="100%" style={{ flex: 1, minWidth: 0, overflow: 'hidden' }}>
            {selectedId ? (
              <ConversationPane key={selectedId} conversationId={selectedId} onClose={close} />
            ) : (
              <Center h="100%" p="lg">
                <Stack align="center" gap="xs">
                  <IconMessages size={40} color="var(--mantine-color-dimmed)" aria-hidden />
                  <Text c="dimmed" ta="center">
                    {messages.listNoneSelected}
                  </Text>
                </Stack>
              </Center>
            )}
          </Paper>
        )}
      </Group>
      {mobile && (
        <MobilePane
          conversationId={selectedId}
          label={selected.data ? displayName(selected.data.contact) : labels.common.conversations}
          onClose={close}
        />
      )}
      <NewConversationDialog
        opened={newOpened}
        onClose={() => setNewOpened(false)}
        onStarted={(conversation) => select(conversation._id)}
      />
      <FilterSheet
        opened={filtersOpened}
        onClose={() => setFiltersOpened(false)}
        user={user}
        value={filter}
        fallback={fallback}
        onApply={applyAndClose}
      />
    </Stack>
  );
}
