// The attendance feature's part in the sync engine (src/app/offline/sync-engine.ts): its query cache shapes
// and how each is kept on the device (the conversations and at least their last CACHED_MESSAGES messages, so
// the app opens offline with the list and the messages seen before), and its catch-up (get-changes-since).
import type { InfiniteData } from '@tanstack/react-query';
import { CACHED_MESSAGES, saveConversations, saveMessages } from '@/app/offline/cache';
import { defineSyncAdapter } from '@/app/offline/sync-engine';
import type { Conversation } from '@/shared/contract/conversations';
import { catchUp } from './catch-up';
import { ATTENDANCE_KEY, type ConversationPage } from './conversations';
import type { MessagesData } from './messages';

/** The attendance queries by kind (the key's second element): ['attendance', kind, ...]. */
export interface AttendanceShapes {
  list: InfiniteData<ConversationPage>;
  messages: MessagesData;
  conversation: Conversation | null;
}

const ignore = () => undefined;

export const attendanceSync = defineSyncAdapter<AttendanceShapes>({
  scope: ATTENDANCE_KEY[0],
  mirror: {
    list(data, device) {
      const listed = data.pages.flatMap((p) => p.conversations);
      // A list is the server's word that the user sees them (a resumed conversation comes back).
      device.shown(listed.map((c) => c._id));
      void saveConversations(device.db, device.fresh('c', listed)).catch(ignore);
    },
    messages(data, device) {
      const list = data.messages;
      if (list[0] && device.isGone(list[0].conversation_id)) return;
      // Only the newest CACHED_MESSAGES are kept: older pages never reach the device.
      const newest = list.filter((m) => !m.provisional).slice(-CACHED_MESSAGES);
      void saveMessages(device.db, device.fresh('m', newest)).catch(ignore);
    },
    conversation(c, device) {
      if (!c || c.finished || device.isGone(c._id)) return;
      void saveConversations(device.db, device.fresh('c', [c])).catch(ignore);
    },
  },
  catchUp,
});
