// The 'Nova conversa' chime, made with the Web Audio API (no sound file to download or cache): two short
// tones. Browsers refuse to play before the page's first user gesture; the chime is then skipped silently.

let context: AudioContext | null = null;

export function playNotificationSound() {
  try {
    context ??= new AudioContext();
    const ctx = context;
    if (ctx.state === 'suspended') void ctx.resume().catch(() => {});
    const start = ctx.currentTime;
    for (const [i, frequency] of [880, 1320].entries()) {
      const at = start + i * 0.14;
      const tone = ctx.createOscillator();
      const gain = ctx.createGain();
      tone.type = 'sine';
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.13);
      tone.connect(gain).connect(ctx.destination);
      tone.start(at);
      tone.stop(at + 0.14);
    }
  } catch {
    // No audio on this device: the notification itself is enough.
  }
}
