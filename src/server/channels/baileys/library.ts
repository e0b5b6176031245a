// Baileys with its protocol buffers and Signal code takes about half a second of CPU to load, and most servers
// never open a QR number's socket: it loads when one first needs it (a connect, a resumed session, an inbox
// left by a crash, a media retry), not at every start.
type Baileys = typeof import('@whiskeysockets/baileys');

let loaded: Baileys | undefined;

export async function loadBaileys(): Promise<Baileys> {
  loaded ??= await import('@whiskeysockets/baileys');
  return loaded;
}

/** The library, once loadBaileys() resolved: every way to a socket or a stored message awaits it first. */
export function baileys(): Baileys {
  if (!loaded) throw new Error('Baileys is not loaded yet (await loadBaileys() first)');
  return loaded;
}
