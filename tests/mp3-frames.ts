// Walks an MP3 file frame by frame (an ID3v2 tag first is skipped) and reads each MPEG audio frame header:
// version, layer, bitrate, sample rate. Any byte that is not a frame where one should start is an error.
const V1_L3_KBPS = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const V1_RATES = [44100, 48000, 32000];

export interface Mp3Stream {
  frames: number;
  version: string;
  layer: string;
  bitrates: Set<number>;
  sampleRate: number;
  seconds: number;
}

export function parseMp3(bytes: Uint8Array): Mp3Stream {
  let at = 0;
  if (bytes[0] === 0x49 && bytes[1] === 0x44 && bytes[2] === 0x33) {
    const size = ((bytes[6] ?? 0) << 21) | ((bytes[7] ?? 0) << 14) | ((bytes[8] ?? 0) << 7) | (bytes[9] ?? 0);
    at = 10 + size;
  }
  const bitrates = new Set<number>();
  let frames = 0;
  let sampleRate = 0;
  let version = '';
  let layer = '';
  while (at + 4 <= bytes.length) {
    const b1 = bytes[at + 1] ?? 0;
    const b2 = bytes[at + 2] ?? 0;
    if (bytes[at] !== 0xff || (b1 & 0xe0) !== 0xe0) throw new Error(`no frame sync at byte ${at}`);
    const v = (b1 >> 3) & 3;
    const l = (b1 >> 1) & 3;
    version = v === 3 ? 'MPEG-1' : v === 2 ? 'MPEG-2' : v === 0 ? 'MPEG-2.5' : 'reserved';
    layer = l === 1 ? 'Layer III' : l === 2 ? 'Layer II' : l === 3 ? 'Layer I' : 'reserved';
    if (version !== 'MPEG-1' || layer !== 'Layer III') throw new Error(`${version} ${layer} at byte ${at}`);
    const kbps = V1_L3_KBPS[b2 >> 4];
    const rate = V1_RATES[(b2 >> 2) & 3];
    if (!kbps || !rate) throw new Error(`bad bitrate or sample rate index at byte ${at}`);
    const padding = (b2 >> 1) & 1;
    bitrates.add(kbps);
    sampleRate = rate;
    frames++;
    at += Math.floor((144 * kbps * 1000) / rate) + padding;
  }
  if (at !== bytes.length) throw new Error(`${bytes.length - at} stray bytes at the end`);
  return { frames, version, layer, bitrates, sampleRate, seconds: (frames * 1152) / sampleRate };
}
