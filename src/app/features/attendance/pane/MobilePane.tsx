// The open conversation on a phone: full screen over the list (its own history entry, see useSelection).
// Loaded with the pane, after the list's first paint.
import { Modal } from '@mantine/core';
import { useLayer } from '@/app/ui/back-stack';
import { ConversationPane } from './ConversationPane';

interface Props {
  conversationId: string | null;
  /** The dialog's name: the contact's, or the list's while the conversation loads. */
  label: string;
  onClose(): void;
}

export function MobilePane({ conversationId, label, onClose }: Props) {
  // Its history entry is the list's (useSelection); Escape closes it only when nothing is open over it.
  const top = useLayer(Boolean(conversationId));
  return (
    <Modal.Root opened={Boolean(conversationId)} onClose={onClose} closeOnEscape={top} fullScreen>
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
