// The conversation menu's entries and when each appears (spec 2 §2.3, §6), as one pure function.
import type { UserRole } from '@/shared/constants';
import type { Conversation } from '@/shared/contract/conversations';
import { messages } from '@/shared/messages';

export type MenuEntry =
  | 'contact-data'
  | 'edit-name'
  | 'mark-answered'
  | 'schedule'
  | 'assign-tags'
  | 'transfer'
  | 'resume'
  | 'serve-as-human'
  | 'disable-follow-up'
  | 'finish'
  | 'bulk-finish';

export const MENU_LABELS: Record<MenuEntry, string> = {
  'contact-data': messages.contactData,
  'edit-name': messages.paneEditName,
  'mark-answered': messages.paneMarkAnswered,
  schedule: messages.scheduleMessage,
  'assign-tags': messages.paneAssignTags,
  transfer: messages.transfer,
  resume: messages.paneResume,
  'serve-as-human': messages.paneServeAsHuman,
  'disable-follow-up': messages.paneDisableFollowUp,
  finish: messages.paneFinish,
  'bulk-finish': messages.paneBulkFinish,
};

/** Entries shown but not usable yet: their dialogs come with a later feature. */
export const COMING_SOON: ReadonlySet<MenuEntry> = new Set<MenuEntry>([]);

type Shown = Pick<Conversation, 'finished' | 'is_manual' | 'auto_follow_up' | 'follow_up_applies'>;

/** The entries of this conversation's menu, in the spec's order. */
export function menuEntries(conversation: Shown, role: UserRole): MenuEntry[] {
  const finished = conversation.finished !== null;
  const entries: MenuEntry[] = [
    'contact-data',
    'edit-name',
    'mark-answered',
    'schedule',
    'assign-tags',
    'transfer',
  ];
  if (finished) entries.push('resume');
  if (!conversation.is_manual && !finished) entries.push('serve-as-human');
  // Only when a follow-up applies (the server decides) and the user has not switched it off.
  if (conversation.follow_up_applies && conversation.auto_follow_up) entries.push('disable-follow-up');
  if (!finished) entries.push('finish');
  // Bulk finish: the entry is the owner's; the dialog itself also serves managers (canBulkFinish).
  if (role === 'owner') entries.push('bulk-finish');
  return entries;
}

/** Who the bulk-finish dialog renders for (the server allows the same roles). */
export const canBulkFinish = (role: UserRole) => role === 'owner' || role === 'manager';
