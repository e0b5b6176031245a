// The service screen's conversation list (spec 2 §2.3): virtualized (only the items in view are in the DOM),
// 15 at a time with 'Carregar mais'. When a conversation arrives above the ones being read, the scroll moves
// with them, so what the user was looking at stays in place.

import { Alert, Button, Center, Loader, Text } from '@mantine/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useMemo, useRef } from 'react';
import { errorMessage } from '@/app/lib/api';
import { chipsQuery } from '@/app/lib/chips';
import { firstPaintDone } from '@/app/lib/first-paint';
import { useTags } from '@/app/lib/lists';
import type { Tag } from '@/shared/contract/configuration';
import { labels, messages } from '@/shared/messages';
import { conversationListQuery } from '../data/conversations';
import { ConversationItem, ITEM_HEIGHT } from './ConversationItem';
import type { ConversationFilter } from './list-view';

interface Props {
  filter: ConversationFilter;
  selectedId: string | null;
  onSelect(id: string): void;
}

export function ConversationList({ filter, selectedId, onSelect }: Props) {
  const list = useInfiniteQuery(conversationListQuery(filter));
  const chips = useQuery(chipsQuery);
  const tagList = useTags();
  const conversations = useMemo(() => list.data?.pages.flatMap((p) => p.conversations) ?? [], [list.data]);
  const chipNames = useMemo(() => new Map((chips.data ?? []).map((c) => [c._id, c.name])), [chips.data]);
  const tags = useMemo(
    () => new Map<string, Tag>((tagList.data ?? []).filter((t) => !t.filed).map((t) => [t._id, t])),
    [tagList.data],
  );

  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: conversations.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ITEM_HEIGHT,
    // The first render already shows the items in view (no frame waiting for the scroller's measure).
    initialRect: { width: 0, height: typeof window === 'undefined' ? 0 : window.innerHeight },
    overscan: 3,
    getItemKey: (index) => conversations[index]?._id ?? index,
  });

  // Keeps the item at the top of the view in place when others are inserted or moved above it.
  const previous = useRef<string[]>([]);
  useLayoutEffect(() => {
    const ids = conversations.map((c) => c._id);
    const el = scroller.current;
    const before = previous.current;
    previous.current = ids;
    if (!el || el.scrollTop <= 0 || before.length === 0) return;
    const oldIndex = Math.floor(el.scrollTop / ITEM_HEIGHT);
    const anchor = before[oldIndex];
    const newIndex = anchor ? ids.indexOf(anchor) : -1;
    // The anchor itself went to the top (its own new message): nothing to hold.
    if (newIndex <= 0 || newIndex === oldIndex) return;
    el.scrollTop += (newIndex - oldIndex) * ITEM_HEIGHT;
  }, [conversations]);

  // The real list is drawn (in this very frame): the offline start's picture of it goes.
  const settled = !list.isPending;
  useLayoutEffect(() => {
    if (settled) firstPaintDone();
  }, [settled]);

  if (list.isPending)
    return (
      <Center flex={1}>
        <Loader size="sm" aria-label={labels.common.conversations} />
      </Center>
    );
  if (list.isError && conversations.length === 0)
    return (
      <Alert color="red" m="sm" title={messages.listLoadFailed}>
        {errorMessage(list.error)}
      </Alert>
    );

  const items = virtualizer.getVirtualItems();
  return (
    <div ref={scroller} style={{ flex: 1, minHeight: 0, overflowY: 'auto', overscrollBehavior: 'contain' }}>
      {conversations.length === 0 ? (
        <Text c="dimmed" ta="center" p="lg">
          {messages.listEmpty}
        </Text>
      ) : (
        <ul
          aria-label={labels.common.conversations}
          style={{ height: virtualizer.getTotalSize(), position: 'relative', margin: 0, padding: 0 }}
        >
          {items.map((item) => {
            const conversation = conversations[item.index];
            if (!conversation) return null;
            return (
              <li
                key={item.key}
                aria-posinset={item.index + 1}
                aria-setsize={list.hasNextPage ? -1 : conversations.length}
                style={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  width: '100%',
                  height: ITEM_HEIGHT,
                  transform: `translateY(${item.start}px)`,
                  listStyle: 'none',
                }}
              >
                <ConversationItem
                  conversation={conversation}
                  chipName={chipNames.get(conversation.chip) ?? ''}
                  tags={tags}
                  selected={conversation._id === selectedId}
                  onSelect={onSelect}
                />
              </li>
            );
          })}
        </ul>
      )}
      {list.hasNextPage && (
        <Center p="md">
          <Button variant="light" loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
            {messages.listLoadMore}
          </Button>
        </Center>
      )}
    </div>
  );
}
