// The page's API client (src/app/lib/api-client.ts with the stored session's token) and the session.
import { messages } from '@/shared/messages';
import { createApiClient } from './api-client';

export {
  ApiError,
  classifyFailure,
  errorMessage,
  type FailureKind,
  isNetworkFailure,
} from './api-client';

const TOKEN_KEY = 'token';
const sessionEndListeners = new Set<(reason?: string) => void>();

export const session = {
  get token() {
    return localStorage.getItem(TOKEN_KEY);
  },
  set(token: string) {
    localStorage.setItem(TOKEN_KEY, token);
  },
  clear() {
    localStorage.removeItem(TOKEN_KEY);
  },
  /**
   * Clears the token and tells the app (query cache, router) that the session is over; `reason` is shown
   * when the server ended it (whichever call, maybe a background one, found out).
   */
  end(reason?: string) {
    session.clear();
    for (const listener of sessionEndListeners) listener(reason);
  },
  onEnd(listener: (reason?: string) => void) {
    sessionEndListeners.add(listener);
    return () => {
      sessionEndListeners.delete(listener);
    };
  },
};

/** The page's client: the stored session's token; a logout answer ends the session. */
const pageClient = createApiClient({
  token: () => session.token,
  onLogout: () => session.end(messages.unauthorized),
});

export const api = pageClient.call;
export const upload = pageClient.upload;
