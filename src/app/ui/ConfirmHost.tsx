// The host of the confirm dialogs (Mantine's ModalsProvider, without children: `modals.openConfirmModal`
// reaches it through window events). Loaded after the first paint by ConfirmLayer (./confirm.tsx).
import { ModalsProvider } from '@mantine/modals';
import { useEffect } from 'react';
import { labels } from '@/shared/messages';
import { useIsMobile } from './use-is-mobile';

export function ConfirmHost({ onMounted }: { onMounted(): void }) {
  const mobile = useIsMobile();
  // The provider's own effects (its event listeners) have run: a confirm may open now.
  useEffect(() => onMounted(), [onMounted]);
  return (
    <ModalsProvider
      labels={{ confirm: labels.common.confirm, cancel: labels.common.cancel }}
      modalProps={{ fullScreen: mobile, centered: !mobile }}
    />
  );
}
