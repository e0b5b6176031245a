// Toasts: every error and success text the screens show outside a form.
import { notifications } from '@mantine/notifications';
import { errorMessage } from './api';

/** Shows a text once: the same text (or id) again replaces the one shown, never stacks. */
function showOnce(color: string, message: string, id = message) {
  notifications.hide(id);
  notifications.show({ id, color, message });
}

export const notifySuccess = (message: string) => showOnce('green', message);

/** Shows an error once: the same text is not stacked (background polls may fail repeatedly). */
export function notifyError(err: unknown) {
  showOnce('red', errorMessage(err));
}

/** Done, with something the user should look at (a yellow toast). */
export const notifyWarning = (message: string) => showOnce('yellow', message);

export const notifyInfo = (message: string, id?: string) => showOnce('blue', message, id);
