import { Modal, type ModalProps } from '@mantine/core';
import { useIsMobile } from './use-is-mobile';

/** Every dialog of the app: a real modal dialog, full-screen on phones. */
export function Dialog(props: ModalProps) {
  const mobile = useIsMobile();
  return <Modal fullScreen={mobile} centered={!mobile} {...props} />;
}
