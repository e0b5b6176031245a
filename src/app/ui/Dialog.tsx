import { Modal, type ModalProps } from '@mantine/core';
import { Fragment, type ReactNode } from 'react';
import { useBackClose } from './back-stack';
import type { EditDialogState } from './use-edit-dialog';
import { useIsMobile } from './use-is-mobile';

/** Every dialog of the app: a real modal dialog, full-screen on phones, where back closes it (and only it). */
export function Dialog(props: ModalProps) {
  const mobile = useIsMobile();
  const top = useBackClose(props.opened, props.onClose);
  return (
    <Modal
      fullScreen={mobile}
      centered={!mobile}
      {...props}
      closeOnEscape={top && props.closeOnEscape !== false}
    />
  );
}

interface EditDialogProps<T> {
  dialog: EditDialogState<T>;
  title: string;
  size?: ModalProps['size'];
  /** The form; it starts afresh at every opening. */
  children: ReactNode;
}

/** The create/edit dialog of a list screen (useEditDialog). */
export function EditDialog<T>({ dialog, title, size, children }: EditDialogProps<T>) {
  return (
    <Dialog opened={dialog.opened} onClose={dialog.close} title={title} size={size}>
      <Fragment key={dialog.key}>{children}</Fragment>
    </Dialog>
  );
}
