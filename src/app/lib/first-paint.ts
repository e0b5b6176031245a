// The offline start's first picture (public/first-paint.js paints it before any JavaScript module runs):
// what #root showed on Atendimento when the app was last hidden, with Mantine's CSS variables. It holds what
// the persisted query cache holds (the list the user may see), and goes with it at sign-out.
import { session } from './api';

const KEY = 'painel-first-paint';
const PATH = '/atendimento';
/** A bigger screen is not worth its localStorage room (the persisted cache lives there too). */
const MAX_CHARS = 300_000;

function save() {
  if (window.location.pathname !== PATH || !session.token || document.getElementById('first-paint')) return;
  const html = document.getElementById('root')?.innerHTML ?? '';
  if (!html || html.length > MAX_CHARS) return;
  const css = [...document.head.querySelectorAll('style[data-mantine-styles]')]
    .map((s) => s.textContent ?? '')
    .join('\n');
  const scheme = document.documentElement.getAttribute('data-mantine-color-scheme');
  try {
    localStorage.setItem(KEY, JSON.stringify({ path: PATH, html, css, scheme }));
  } catch {
    // No room: the next offline start waits for the app, as before.
  }
}

/** Saves the picture whenever the app is hidden (a phone's app switch, a reload, a close). */
export function keepFirstPaint() {
  window.addEventListener('pagehide', save);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') save();
  });
}

/** The real screen is there: the picture goes. */
export function firstPaintDone() {
  document.getElementById('first-paint')?.remove();
  document.getElementById('first-paint-style')?.remove();
}

/** Sign-out, or another session: nothing of the last screen stays. */
export function forgetFirstPaint() {
  firstPaintDone();
  localStorage.removeItem(KEY);
}
