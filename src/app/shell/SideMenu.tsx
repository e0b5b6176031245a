import { Box, NavLink, Stack, Text } from '@mantine/core';
import {
  type Icon,
  IconAddressBook,
  IconCalendarTime,
  IconCreditCard,
  IconDeviceMobile,
  IconHelp,
  IconHierarchy2,
  IconHistory,
  IconLayoutDashboard,
  IconMessageBolt,
  IconMessages,
  IconRobot,
  IconSitemap,
  IconSpeakerphone,
  IconTags,
  IconUser,
  IconUsers,
  IconUsersGroup,
} from '@tabler/icons-react';
import { Link, useRouterState } from '@tanstack/react-router';
import { canOpen, ROUTE_NAMES } from '@/app/lib/access';
import type { User } from '@/shared/contract';
import { labels } from '@/shared/messages';

interface MenuItem {
  label: string;
  to: string;
  icon: Icon;
}

// Only screens that exist are listed; each later screen adds its line here.
const SECTIONS: { title: string; items: MenuItem[] }[] = [
  {
    title: labels.shell.principal,
    items: [
      { label: labels.common.dashboard, to: '/', icon: IconLayoutDashboard },
      { label: labels.common.atendimento, to: ROUTE_NAMES.Atendimento, icon: IconMessages },
      { label: labels.common.conversas, to: '/conversas', icon: IconHistory },
      { label: labels.common.agendamento, to: '/agendamento', icon: IconCalendarTime },
      { label: labels.common.contatos, to: '/contatos', icon: IconAddressBook },
      { label: labels.common.audiencias, to: '/audiencias', icon: IconUsers },
      { label: labels.common.campanhas, to: '/campanhas', icon: IconSpeakerphone },
    ],
  },
  {
    title: labels.shell.configuracoes,
    items: [
      { label: labels.common.meusChips, to: '/chips', icon: IconDeviceMobile },
      { label: labels.chatbots.chatbots, to: '/chatbots', icon: IconRobot },
      { label: labels.flows.fluxos, to: '/flows', icon: IconHierarchy2 },
      { label: labels.common.tags, to: '/tags', icon: IconTags },
      { label: labels.common.departamentos, to: '/departamentos', icon: IconSitemap },
      { label: labels.common.minhaEquipe, to: '/equipe', icon: IconUsersGroup },
      { label: labels.common.mensagensRapidas, to: '/mensagens-rapidas', icon: IconMessageBolt },
    ],
  },
  {
    title: labels.shell.conta,
    items: [
      { label: labels.common.meuPerfil, to: '/meu-perfil', icon: IconUser },
      { label: labels.common.minhaAssinatura, to: '/minha-conta', icon: IconCreditCard },
      { label: labels.common.ajuda, to: '/ajuda', icon: IconHelp },
    ],
  },
];

/** The menu by role and access areas (spec 1 "Menu by role"): what the user cannot open is not listed. */
export function menuFor(user: User) {
  return SECTIONS.map((s) => ({ ...s, items: s.items.filter((i) => canOpen(user, i.to)) })).filter(
    (s) => s.items.length > 0,
  );
}

export function SideMenu({ user, onNavigate }: { user: User; onNavigate?(): void }) {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  return (
    // The browser's own scrolling: Mantine's ScrollArea would bring @floating-ui into the first paint.
    <Box h="100%" style={{ overflowY: 'auto' }}>
      <Stack gap="md" p="sm">
        {menuFor(user).map((section) => (
          <Stack gap={2} key={section.title}>
            <Text fz="xs" fw={700} c="dimmed" tt="uppercase" px="sm">
              {section.title}
            </Text>
            {section.items.map((item) => {
              const active = pathname === item.to;
              return (
                <NavLink
                  key={item.to}
                  component={Link}
                  to={item.to}
                  label={item.label}
                  leftSection={<item.icon size={20} aria-hidden />}
                  active={active}
                  aria-current={active ? 'page' : undefined}
                  onClick={onNavigate}
                  style={{ borderRadius: 'var(--mantine-radius-md)' }}
                />
              );
            })}
          </Stack>
        ))}
      </Stack>
    </Box>
  );
}
