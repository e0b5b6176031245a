import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifyError } from '@/app/lib/notify';
import { labels } from '@/shared/messages';
import { afterStepsBack, useBackClose } from './back-stack';
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
 * and two buttons: a small centred dialog on phones too, never a full-screen page. Where 'Cancelar' would be
 * ambiguous (cancelling a campaign), the buttons say what they do (`confirmLabel`, `cancelLabel`).
 */
export async function confirm(opts: {
  title: string;
  message: string;
  danger?: boolean;
  confirmLabel?: string;
  cancelLabel?: string;
}): Promise<boolean> {
  try {
    await Host.preload();
  } catch (err) {
    notifyError(err);
    return false;
  }
  await hostReady;
  return new Promise((resolve) => {
    let answered = false;
    // The answer waits for the confirm's history entry to be left: what the caller does next (navigate, close
    // the dialog under it) must not be undone by that step back.
    const answer = (yes: boolean) => {
      if (answered) return;
      answered = true;
      setTimeout(() => afterStepsBack(() => resolve(yes)), 0);
    };
    const id = modals.openConfirmModal({
      title: opts.title,
      children: (
        <>
          <ConfirmBackLayer onBack={() => modals.close(id)} />
          <Text fz="sm">{opts.message}</Text>
        </>
      ),
      labels: {
        confirm: opts.confirmLabel ?? labels.common.confirm,
        cancel: opts.cancelLabel ?? labels.common.cancel,
      },
      confirmProps: opts.danger ? { color: 'red' } : undefined,
      fullScreen: false,
      centered: true,
      onConfirm: () => answer(true),
      onCancel: () => answer(false),
      onClose: () => answer(false),
    });
  });
}

/** A confirm is a layer of its own: back (on a phone) and Escape answer it, leaving what is under it open. */
function ConfirmBackLayer({ onBack }: { onBack(): void }) {
  useBackClose(true, onBack);
  return null;
}
