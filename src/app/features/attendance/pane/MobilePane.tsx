// The open conversation on a phone: full screen over the list (its own history entry, see useSelection).
// Loaded with the pane, after the list's first paint.
import { Modal } from '@mantine/core';
import { ConversationPane } from './ConversationPane';

interface Props {
  conversationId: string | null;
  /** The dialog's name: the contact's, or the list's while the conversation loads. */
  label: string;
  onClose(): void;
}

export function MobilePane({ conversationId, label, onClose }: Props) {
  return (
    <Modal.Root opened={Boolean(conversationId)} onClose={onClose} fullScreen>
      <Modal.Content aria-label={label}>
        <Modal.Body p={0} h="100%">
          {conversationId && (
            <ConversationPane key={conversationId} conversationId={conversationId} onClose={onClose} />
          )}
        </Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}
