import { ActionIcon, Button, Text } from '@mantine/core';
import { IconChevronsDown } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useLayoutEffect, useRef } from 'react';
import { messages } from '@/shared/messages';
import { type BubbleActions, MessageBubble } from './MessageBubble';
import classes from './pane.module.css';
import type { Row } from './pane-view';

interface Props {
  rows: Row[];
  me: string;
  actions: BubbleActions;
  loadingOlder: boolean;
  onLoadOlder(): void;
  typing: boolean;
  /** Changes at each of the user's own sends: the area goes to the newest message whatever the scroll. */
  followSignal: number;
}

const estimate = (row: Row | undefined) => {
  if (row?.kind !== 'message') return 40;
  const m = row.message;
  if (m.type === 'image' || m.type === 'video') return 220;
  if (m.type === 'text') return 40 + Math.min(8, Math.ceil(m.message.length / 48)) * 19;
  return 90;
};

/**
 * The message area, virtualized (only the rows in view and a few around them are in the DOM) and anchored at
 * the end, as chats are: it opens at the newest message, follows new ones while the reader is at the end,
 * and keeps the reader's place when 'Carregar mais' adds older ones above.
 */
export const MessageList = memo(function MessageList({
  rows,
  me,
  actions,
  loadingOlder,
  onLoadOlder,
  typing,
  followSignal,
}: Props) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => estimate(rows[i]),
    getItemKey: (i) => rows[i]?.key ?? i,
    overscan: 6,
    anchorTo: 'end',
    followOnAppend: true,
    scrollEndThreshold: 80,
  });

  useLayoutEffect(() => {
    virtualizer.scrollToEnd();
  }, [virtualizer]);

  useEffect(() => {
    if (followSignal) virtualizer.scrollToEnd();
  }, [followSignal, virtualizer]);

  const items = virtualizer.getVirtualItems();
  const atEnd = rows.length === 0 || virtualizer.isAtEnd(120);

  return (
    <div className={classes.area}>
      <div ref={scrollRef} className={classes.scroller}>
        {rows.length === 0 && (
          <Text size="sm" c="dimmed" ta="center" p="md" mt="auto">
            {messages.paneNoMessages}
          </Text>
        )}
        <ul
          aria-label={messages.messagesTitle}
          className={classes.list}
          style={{ height: virtualizer.getTotalSize() }}
        >
          {items.map((item) => {
            const row = rows[item.index];
            if (!row) return null;
            return (
              <li
                key={item.key}
                data-index={item.index}
                ref={virtualizer.measureElement}
                className={classes.rowSlot}
                style={{ transform: `translateY(${item.start}px)` }}
              >
                {row.kind === 'more' ? (
                  <div className={classes.centre}>
                    <Button
                      size="xs"
                      variant="white"
                      radius="xl"
                      loading={loadingOlder}
                      onClick={onLoadOlder}
                    >
                      {messages.listLoadMore}
                    </Button>
                  </div>
                ) : row.kind === 'day' ? (
                  <div className={classes.centre}>
                    <span className={classes.day}>{row.label}</span>
                  </div>
                ) : (
                  <MessageBubble message={row.message} me={me} actions={actions} />
                )}
              </li>
            );
          })}
        </ul>
      </div>
      <div role="status" aria-live="polite" className={classes.typingSlot}>
        {typing && <span className={classes.typing}>{messages.typing}</span>}
      </div>
      {!atEnd && (
        <ActionIcon
          className={classes.toEnd}
          variant="white"
          color="gray"
          size="lg"
          radius="xl"
          aria-label={messages.paneToEnd}
          onClick={() => virtualizer.scrollToEnd({ behavior: 'smooth' })}
          style={{ boxShadow: '0 1px 3px rgb(11 20 26 / 25%)' }}
        >
          <IconChevronsDown size={18} aria-hidden />
        </ActionIcon>
      )}
    </div>
  );
});
