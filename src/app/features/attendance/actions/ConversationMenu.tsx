import { ActionIcon, Badge, Menu } from '@mantine/core';
import {
  IconAddressBook,
  IconArrowsExchange,
  IconCalendarTime,
  IconChecks,
  IconDotsVertical,
  IconHeadset,
  IconPencil,
  IconPlayerPlay,
  IconRobotOff,
  IconTags,
  IconUsersGroup,
  IconX,
} from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type ComponentType, useState } from 'react';
import { useCurrentUser } from '@/app/lib/user';
import { useOnline } from '@/app/offline/app-offline';
import { lazyDialog } from '@/app/ui/lazy-dialog';
import type { ContactDetails } from '@/shared/contract/contacts';
import type { Conversation } from '@/shared/contract/conversations';
import { messages } from '@/shared/messages';
import { patchContact, useConversationActions } from './conversation-actions';
import { COMING_SOON, canBulkFinish, MENU_LABELS, type MenuEntry, menuEntries } from './menu-entries';

// The entries' dialogs load when first opened (the menu's opening preloads them).
const ContactDrawer = lazyDialog(() =>
  import('@/app/widgets/contact/ContactDrawer').then((m) => m.ContactDrawer),
);
const ContactNameDialog = lazyDialog(() =>
  import('@/app/widgets/contact/ContactDialogs').then((m) => m.ContactNameDialog),
);
const ContactTagsDialog = lazyDialog(() =>
  import('@/app/widgets/contact/ContactDialogs').then((m) => m.ContactTagsDialog),
);
const TransferDialog = lazyDialog(() => import('./TransferDialog').then((m) => m.TransferDialog));
const ScheduleDialog = lazyDialog(() =>
  import('@/app/widgets/schedule/ScheduleDialog').then((m) => m.ScheduleDialog),
);
const BulkFinishDialog = lazyDialog(() => import('./BulkFinishDialog').then((m) => m.BulkFinishDialog));
const DIALOGS = [
  ContactDrawer,
  ContactNameDialog,
  ContactTagsDialog,
  TransferDialog,
  ScheduleDialog,
  BulkFinishDialog,
];
const preloadDialogs = () => {
  for (const dialog of DIALOGS) dialog.preload().catch(() => undefined);
};

const ICONS: Record<MenuEntry, ComponentType<{ size?: number; 'aria-hidden'?: boolean }>> = {
  'contact-data': IconAddressBook,
  'edit-name': IconPencil,
  'mark-answered': IconChecks,
  schedule: IconCalendarTime,
  'assign-tags': IconTags,
  transfer: IconArrowsExchange,
  resume: IconPlayerPlay,
  'serve-as-human': IconHeadset,
  'disable-follow-up': IconRobotOff,
  finish: IconX,
  'bulk-finish': IconUsersGroup,
};

type DialogName = 'contact' | 'name' | 'tags' | 'transfer' | 'bulk' | 'schedule';

interface Props {
  conversation: Conversation;
  /** Clears the pane: the conversation was finished or left the user's departments. */
  onClose(): void;
}

/** The conversation menu (spec 2 §2.3) and the dialogs its entries open. */
export function ConversationMenu({ conversation, onClose }: Props) {
  const client = useQueryClient();
  const user = useCurrentUser();
  const actions = useConversationActions(conversation, onClose);
  const [dialog, setDialog] = useState<DialogName | null>(null);
  const close = () => setDialog(null);
  const savedContact = (contact: ContactDetails) => patchContact(client, conversation, contact);

  const run: Record<MenuEntry, () => void> = {
    'contact-data': () => setDialog('contact'),
    'edit-name': () => setDialog('name'),
    'mark-answered': () => void actions.markAnswered(),
    schedule: () => setDialog('schedule'),
    'assign-tags': () => setDialog('tags'),
    transfer: () => setDialog('transfer'),
    resume: () => void actions.resume(),
    'serve-as-human': () => void actions.serveAsHuman(),
    'disable-follow-up': () => void actions.disableFollowUp(),
    finish: () => void actions.finish(),
    'bulk-finish': () => setDialog('bulk'),
  };

  const entries = menuEntries(conversation, user.user_role);
  // Offline, the entries that need the server wait for the connection (the contact's data is cached).
  const online = useOnline();

  return (
    <>
      <Menu position="bottom-end" shadow="md" width={300} withinPortal onOpen={preloadDialogs}>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label={messages.paneMenu}>
            <IconDotsVertical size={20} aria-hidden />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {!online && <Menu.Label>{messages.needsConnection}</Menu.Label>}
          {entries.map((entry) => {
            const Icon = ICONS[entry];
            const soon = COMING_SOON.has(entry);
            const danger = entry === 'finish' || entry === 'bulk-finish';
            return (
              <Menu.Item
                key={entry}
                leftSection={<Icon size={18} aria-hidden />}
                color={danger ? 'red' : undefined}
                disabled={soon || (!online && entry !== 'contact-data')}
                rightSection={
                  soon ? (
                    <Badge size="xs" variant="light" color="gray">
                      {messages.listComingSoon}
                    </Badge>
                  ) : undefined
                }
                onClick={run[entry]}
              >
                {MENU_LABELS[entry]}
              </Menu.Item>
            );
          })}
        </Menu.Dropdown>
      </Menu>

      <ContactDrawer
        contactId={conversation.contact._id}
        opened={dialog === 'contact'}
        onClose={close}
        conversationId={conversation._id}
        onSaved={savedContact}
      />
      <ContactNameDialog
        contact={conversation.contact}
        opened={dialog === 'name'}
        onClose={close}
        title={messages.paneEditName}
        onSaved={savedContact}
      />
      <ContactTagsDialog
        contact={conversation.contact}
        conversationId={conversation._id}
        opened={dialog === 'tags'}
        onClose={close}
        title={messages.paneAssignTags}
        onSaved={savedContact}
      />
      <TransferDialog
        conversation={conversation}
        opened={dialog === 'transfer'}
        onClose={close}
        onTransferred={actions.transferred}
      />
      <ScheduleDialog
        opened={dialog === 'schedule'}
        onClose={close}
        item={null}
        preset={{ chip: conversation.chip, phone: conversation.contact.phone }}
      />
      {canBulkFinish(user.user_role) && <BulkFinishDialog opened={dialog === 'bulk'} onClose={close} />}
    </>
  );
}
