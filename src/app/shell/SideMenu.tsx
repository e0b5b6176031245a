import { Box, NavLink, Stack, Text, UnstyledButton } from '@mantine/core';
import {
  type Icon,
  IconAddressBook,
  IconApi,
  IconCalendarTime,
  IconCreditCard,
  IconDeviceMobile,
  IconHelp,
  IconHierarchy2,
  IconHistory,
  IconLayoutDashboard,
  IconMessageBolt,
  IconMessageCircleUp,
  IconMessages,
  IconRobot,
  IconSitemap,
  IconSpeakerphone,
  IconTags,
  IconUser,
  IconUsers,
  IconUsersGroup,
  IconWebhook,
} from '@tabler/icons-react';
import { Link, useRouterState } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { canOpen, ROUTE_NAMES } from '@/app/lib/access';
import type { User } from '@/shared/contract';
import { apiMenuLabel, labels, messages, webhooksMenuLabel } from '@/shared/messages';
import { adminMenuLabels } from '@/shared/messages-admin-menu';

interface MenuItem {
  label: string;
  to: string;
  icon: Icon;
}

// Only screens that exist are listed; each later screen adds its line here.
const SECTIONS: { title: string; items: MenuItem[] }[] = [
  {
    title: labels.shell.main,
    items: [
      { label: labels.common.dashboard, to: '/', icon: IconLayoutDashboard },
      { label: labels.common.service, to: ROUTE_NAMES.Atendimento, icon: IconMessages },
      { label: labels.common.conversations, to: '/conversas', icon: IconHistory },
      { label: labels.common.schedule, to: '/agendamento', icon: IconCalendarTime },
      { label: labels.common.contacts, to: '/contatos', icon: IconAddressBook },
      { label: labels.common.audiences, to: '/audiencias', icon: IconUsers },
      { label: labels.common.campaigns, to: '/campanhas', icon: IconSpeakerphone },
      { label: labels.common.officialApiCampaigns, to: '/campanhas-api-oficial', icon: IconSpeakerphone },
    ],
  },
  {
    title: labels.shell.settings,
    items: [
      { label: labels.common.myChips, to: '/chips', icon: IconDeviceMobile },
      { label: labels.chatbots.chatbots, to: '/chatbots', icon: IconRobot },
      { label: labels.flows.flows, to: '/flows', icon: IconHierarchy2 },
      { label: labels.common.tags, to: '/tags', icon: IconTags },
      { label: labels.common.departments, to: '/departamentos', icon: IconSitemap },
      { label: labels.common.myTeam, to: '/equipe', icon: IconUsersGroup },
      { label: labels.common.quickMessages, to: '/mensagens-rapidas', icon: IconMessageBolt },
      { label: labels.team.automaticFollowUps, to: '/auto-follow-ups', icon: IconMessageCircleUp },
      { label: apiMenuLabel, to: '/api', icon: IconApi },
      { label: webhooksMenuLabel, to: '/webhooks', icon: IconWebhook },
    ],
  },
  {
    title: labels.shell.account,
    items: [
      { label: labels.common.myProfile, to: '/meu-perfil', icon: IconUser },
      { label: labels.common.mySignature, to: '/minha-conta', icon: IconCreditCard },
      { label: labels.common.help, to: '/ajuda', icon: IconHelp },
    ],
  },
  // Platform staff (spec 3 §6 system roles): each line listed only to users holding its role. Icons the shell
  // already carries: each new one costs the shell's budget (tests/size.mjs).
  {
    title: adminMenuLabels.section,
    items: [
      { label: messages.customers, to: '/admin-clientes', icon: IconUsers },
      { label: messages.offers, to: '/admin-ofertas', icon: IconTags },
      { label: adminMenuLabels.financial, to: '/dash-financeiro', icon: IconCreditCard },
      { label: labels.common.technicalDashboard, to: '/dash-tecnico', icon: IconLayoutDashboard },
    ],
  },
];

/** The menu by role and access areas (spec 1 "Menu by role"): what the user cannot open is not listed. */
export function menuFor(user: User) {
  return SECTIONS.map((s) => ({ ...s, items: s.items.filter((i) => canOpen(user, i.to)) })).filter(
    (s) => s.items.length > 0,
  );
}

/** Whether the menu has items below what is shown (at 1280×800 the last sections are below the fold). */
function useMoreBelow() {
  const ref = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const check = () => setMore(el.scrollTop + el.clientHeight < el.scrollHeight - 12);
    check();
    el.addEventListener('scroll', check, { passive: true });
    const resized = new ResizeObserver(check);
    resized.observe(el);
    return () => {
      el.removeEventListener('scroll', check);
      resized.disconnect();
    };
  }, []);
  return { ref, more };
}

/** `onNavigate` takes over the menu's links (the phone's drawer closes first, then navigates). */
export function SideMenu({ user, onNavigate }: { user: User; onNavigate?(to: string): void }) {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const below = useMoreBelow();
  return (
    <Box h="100%" pos="relative">
      {/* The browser's own scrolling: Mantine's ScrollArea would bring @floating-ui into the first paint. */}
      <Box ref={below.ref} h="100%" style={{ overflowY: 'auto' }}>
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
                    onClick={(event) => {
                      if (!onNavigate || event.metaKey || event.ctrlKey || event.shiftKey) return;
                      event.preventDefault();
                      onNavigate(item.to);
                    }}
                    style={{ borderRadius: 'var(--mantine-radius-md)' }}
                  />
                );
              })}
            </Stack>
          ))}
        </Stack>
      </Box>
      {below.more && (
        // A hint over the menu's foot (not in its scroll, so it adds no height of its own) that the menu goes
        // on below; a click brings the rest into view.
        <UnstyledButton
          onClick={() =>
            below.ref.current?.scrollBy({ top: below.ref.current.clientHeight, behavior: 'smooth' })
          }
          fz="xs"
          fw={600}
          c="dimmed"
          ta="center"
          w="100%"
          py={6}
          style={{
            position: 'absolute',
            bottom: 0,
            left: 0,
            background: 'linear-gradient(transparent, var(--mantine-color-body) 45%)',
          }}
        >
          {labels.shell.moreItemsBelow} <span aria-hidden>↓</span>
        </UnstyledButton>
      )}
    </Box>
  );
}
