import { Group, Title } from '@mantine/core';
import { type ReactNode, useEffect } from 'react';

/** A screen's title (the page's one h1, and the tab's title) and its actions, wrapping on phones. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Painel de Atendimento`;
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
