import { Alert, Avatar, Badge, Box, Button, Center, Group, Loader, Switch, Text } from '@mantine/core';
import { IconChecks, IconPlugConnectedX, IconUserCircle } from '@tabler/icons-react';
import { Fragment, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { api } from '@/app/lib/api';
import { notifyError } from '@/app/lib/notify';
import { formatPhone } from '@/shared/format';
import { labels, messages } from '@/shared/messages';
import { Composer } from './Composer';
import { type CustomerIdentity, loadAutoRead, saveAutoRead } from './identity';
import { MessageBubble } from './MessageBubble';
import classes from './simulator.module.css';
import { useSimulatorChat } from './use-simulator-chat';

interface Props {
  token: string;
  chipName: string;
  connected: boolean;
  /** Flows' menus as numbered text (a number without the official API) instead of buttons and lists. */
  numberedMenus: boolean;
  onNumberedMenus(numbered: boolean): void;
  identity: CustomerIdentity;
  onSwitchCustomer(): void;
  onChip(connected: boolean | null): void;
}

const dayKey = (iso: string) => new Date(iso).toDateString();

function dayLabel(iso: string) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const today = new Date();
  const yesterday = new Date(today);
  yesterday.setDate(today.getDate() - 1);
  if (d.toDateString() === today.toDateString()) return messages.today;
  if (d.toDateString() === yesterday.toDateString()) return messages.yesterday;
  return d.toLocaleDateString('pt-BR');
}

/** The chat with the business as the customer's phone shows it. */
export function SimulatorChat({
  token,
  chipName,
  connected,
  numberedMenus,
  onNumberedMenus,
  identity,
  onSwitchCustomer,
  onChip,
}: Props) {
  const [autoRead, setAutoRead] = useState(loadAutoRead);
  const [switchingMenus, setSwitchingMenus] = useState(false);
  const { bubbles, loading, loadError, send, retry, unreadCount, markRead, reload, typing } =
    useSimulatorChat({
      token,
      identity,
      autoRead,
      onChip,
    });
  const [marking, setMarking] = useState(false);
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);

  const toBottom = useCallback((force: boolean) => {
    const el = scroller.current;
    if (el && (force || atBottom.current)) el.scrollTop = el.scrollHeight;
  }, []);

  // A new message of one's own scrolls into view; any other change keeps the bottom in view when it was.
  const seen = useRef(0);
  useLayoutEffect(() => {
    const grew = bubbles.length > seen.current;
    seen.current = bubbles.length;
    toBottom(grew && bubbles[bubbles.length - 1]?.message.from_me === false);
  }, [bubbles, toBottom]);
  useEffect(() => {
    if (!loading) toBottom(true);
  }, [loading, toBottom]);

  async function readAll() {
    setMarking(true);
    try {
      await markRead();
    } catch (err) {
      notifyError(err);
    } finally {
      setMarking(false);
    }
  }

  async function switchMenus(numbered: boolean) {
    setSwitchingMenus(true);
    try {
      await api('simulator-set-menus', { token, numbered });
      onNumberedMenus(numbered);
      // The menus already on screen are drawn again the new way.
      await reload();
    } catch (err) {
      notifyError(err);
    } finally {
      setSwitchingMenus(false);
    }
  }

  let lastDay = '';
  return (
    <>
      <header className={classes.header}>
        <Avatar radius="xl" size={40} color="white" variant="filled" aria-hidden>
          <Text fw={700} c="#008069">
            {chipName.slice(0, 1).toUpperCase() || '?'}
          </Text>
        </Avatar>
        <Box style={{ flex: 1, minWidth: 0 }}>
          <Text component="h1" fw={600} fz="md" lh={1.2} truncate="end" m={0}>
            {chipName}
          </Text>
          <Text fz="xs" lh={1.3} c={connected ? '#d9fdd3' : '#ffd8a8'}>
            {connected ? (typing ? messages.typing : 'online') : 'desconectado'}
          </Text>
        </Box>
      </header>
      <div className={classes.bar}>
        <Group gap={6} wrap="nowrap" justify="space-between">
          <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
            <IconUserCircle size={18} color="#54656f" aria-hidden style={{ flexShrink: 0 }} />
            <Text size="xs" c="#54656f" truncate="end">
              {labels.simulator.youAre} <b>{identity.name}</b> · {formatPhone(identity.phone)}
            </Text>
          </Group>
          <Button
            size="compact-xs"
            variant="subtle"
            color="teal"
            style={{ flexShrink: 0 }}
            onClick={onSwitchCustomer}
          >
            {labels.simulator.changeCustomer}
          </Button>
        </Group>
        <Switch
          mt={4}
          size="xs"
          color="teal"
          label={labels.simulator.automaticReadReceipt}
          checked={autoRead}
          onChange={(e) => {
            const on = e.currentTarget.checked;
            setAutoRead(on);
            saveAutoRead(on);
          }}
        />
        <Switch
          mt={4}
          size="xs"
          color="teal"
          label={labels.flowMenus.numberedTextMenus}
          checked={numberedMenus}
          disabled={switchingMenus}
          onChange={(e) => void switchMenus(e.currentTarget.checked)}
        />
      </div>
      {!connected && (
        <Alert
          color="orange"
          radius={0}
          py={8}
          icon={<IconPlugConnectedX size={18} aria-hidden />}
          role="alert"
          styles={{ message: { fontSize: 13 } }}
        >
          {messages.simulatorDisconnected}
        </Alert>
      )}
      <div className={classes.chatArea}>
        <div
          className={classes.wallpaper}
          // Room for the floating 'Marcar como lidas', so it never covers the last message.
          style={unreadCount > 0 ? { paddingBottom: 56 } : undefined}
          ref={scroller}
          onScroll={(e) => {
            const el = e.currentTarget;
            atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
          }}
        >
          {loading ? (
            <Center h="100%">
              <Loader color="teal" aria-label={labels.common.loading} />
            </Center>
          ) : (
            <ol className={classes.list} aria-label={messages.messagesTitle}>
              {loadError && (
                <li className={classes.empty} role="alert">
                  {loadError}
                </li>
              )}
              {!loadError && bubbles.length === 0 && (
                <li className={classes.empty}>{messages.simulatorNoMessages}</li>
              )}
              {bubbles.map((bubble) => {
                const day = dayKey(bubble.message.created);
                const separator = day !== lastDay;
                lastDay = day;
                return (
                  <Fragment key={bubble.message.id}>
                    {separator && (
                      <li className={classes.day} aria-hidden>
                        {dayLabel(bubble.message.created)}
                      </li>
                    )}
                    <MessageBubble
                      bubble={bubble}
                      chipName={chipName}
                      onRetry={retry}
                      onMediaLoad={() => toBottom(false)}
                      onChoose={(choice) => send({ type: 'text', text: choice.title, choice })}
                      menuDisabled={!connected}
                    />
                  </Fragment>
                );
              })}
            </ol>
          )}
        </div>
        {unreadCount > 0 && (
          <Button
            className={classes.unreadButton}
            size="xs"
            radius="xl"
            color="#53bdeb"
            leftSection={<IconChecks size={16} aria-hidden />}
            rightSection={
              <Badge size="sm" circle color="white" c="#027eb5" aria-hidden>
                {unreadCount}
              </Badge>
            }
            loading={marking}
            onClick={() => void readAll()}
            aria-label={`Marcar como lidas (${unreadCount})`}
          >
            {labels.simulator.markAsRead}
          </Button>
        )}
      </div>
      <Composer disabled={!connected} onSend={send} />
    </>
  );
}
