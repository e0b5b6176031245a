import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifyError } from '@/app/lib/notify';
import { labels } from '@/shared/messages';
import { deferredPart } from './lazy-dialog';

// The confirm dialogs' host (ModalsProvider and the modal machinery) loads after the first paint; a confirm
// asked before it is in waits for it.
let hostMounted: () => void = () => undefined;
const hostReady = new Promise<void>((resolve) => {
  hostMounted = resolve;
});
const Host = deferredPart<{ onMounted(): void }>(
  () => import('./ConfirmHost').then((m) => m.ConfirmHost),
  () => null,
);
/** Where the confirm dialogs open: rendered once, by the shell. */
export const ConfirmLayer = () => <Host onMounted={hostMounted} />;

/**
 * The confirm dialog (spec 1 "Shell elements"): Cancelar / Confirmar; answers true on Confirmar. A question
 * and two buttons: a small centred dialog on phones too, never a full-screen page.
 */
export async function confirm(opts: { title: string; message: string; danger?: boolean }): Promise<boolean> {
  try {
    await Host.preload();
  } catch (err) {
    notifyError(err);
    return false;
  }
  await hostReady;
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
