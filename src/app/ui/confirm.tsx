import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { labels } from '@/shared/messages';

/**
 * The confirm dialog (spec 1 "Shell elements"): Cancelar / Confirmar; answers true on Confirmar. A question
 * and two buttons: a small centred dialog on phones too, never a full-screen page.
 */
export function confirm(opts: { title: string; message: string; danger?: boolean }): Promise<boolean> {
  return new Promise((resolve) => {
    modals.openConfirmModal({
      title: opts.title,
      children: <Text fz="sm">{opts.message}</Text>,
      labels: { confirm: labels.common.confirmar, cancel: labels.common.cancelar },
      confirmProps: opts.danger ? { color: 'red' } : undefined,
      fullScreen: false,
      centered: true,
      onConfirm: () => resolve(true),
      onCancel: () => resolve(false),
      onClose: () => resolve(false),
    });
  });
}
