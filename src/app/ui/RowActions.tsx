import { ActionIcon, Button, Tooltip } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import { useIsMobile } from './use-is-mobile';

export interface RowAction {
  label: string;
  icon: Icon;
  color?: string;
  run(): void;
}

/** A list row's actions: icon buttons with a tooltip on desktop, labelled buttons on phone cards. */
export function RowActions({ actions }: { actions: RowAction[] }) {
  const mobile = useIsMobile();
  return (
    <>
      {actions.map((a) =>
        mobile ? (
          <Button
            key={a.label}
            size="xs"
            variant="light"
            color={a.color}
            leftSection={<a.icon size={14} aria-hidden />}
            onClick={a.run}
          >
            {a.label}
          </Button>
        ) : (
          <Tooltip key={a.label} label={a.label} withArrow>
            <ActionIcon variant="subtle" color={a.color} aria-label={a.label} onClick={a.run}>
              <a.icon size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
        ),
      )}
    </>
  );
}
