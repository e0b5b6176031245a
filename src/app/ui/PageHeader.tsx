import { Group, Title } from '@mantine/core';
import { type ReactNode, useEffect } from 'react';
import { labels } from '@/shared/messages';

/** A screen's title (the page's one h1, and the tab's title) and its actions, wrapping on phones. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  useEffect(() => {
    document.title = labels.common.documentTitle(title);
  }, [title]);
  return (
    <Group justify="space-between" align="center" mb="lg" gap="sm">
      <Title order={1} fz={{ base: 'h3', sm: 'h2' }}>
        {title}
      </Title>
      {children && <Group gap="xs">{children}</Group>}
    </Group>
  );
}
