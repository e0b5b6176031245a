// Toasts: every error and success text the screens show outside a form.
import { notifications } from '@mantine/notifications';
import { errorMessage } from './api';

export const notifySuccess = (message: string) => notifications.show({ color: 'green', message });

/** Shows an error once: the same text is not stacked (background polls may fail repeatedly). */
export function notifyError(err: unknown) {
  const message = errorMessage(err);
  notifications.hide(message);
  notifications.show({ id: message, color: 'red', message });
}

export const notifyInfo = (message: string, id?: string) =>
  notifications.show({ id, color: 'blue', message });
