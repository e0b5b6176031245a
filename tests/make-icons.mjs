// Draws the app icons (a white chat bubble on the theme green) and writes them as PNG with Node's zlib only.
// Run once after changing the drawing: `npm run icons`. The PNGs are committed in public/icons/.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const GREEN = [0x2f, 0x9e, 0x44];
const WHITE = [255, 255, 255];
const OUT = new URL('../public/icons/', import.meta.url);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

function png(size, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const inRoundRect = (x, y, x0, y0, x1, y1, r) => {
  if (x < x0 || x > x1 || y < y0 || y > y1) return false;
  const cx = Math.min(Math.max(x, x0 + r), x1 - r);
  const cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
};
const inTriangle = (x, y, [ax, ay], [bx, by], [cx, cy]) => {
  const s = (px, py, qx, qy, rx, ry) => (px - rx) * (qy - ry) - (qx - rx) * (py - ry);
  const d1 = s(x, y, ax, ay, bx, by);
  const d2 = s(x, y, bx, by, cx, cy);
  const d3 = s(x, y, cx, cy, ax, ay);
  return !((d1 < 0 || d2 < 0 || d3 < 0) && (d1 > 0 || d2 > 0 || d3 > 0));
};
const inCircle = (x, y, cx, cy, r) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;

/** The colour at a point of the unit square, or null (transparent). */
function paint(x, y, { fullBleed, scale }) {
  const inBg = fullBleed || inRoundRect(x, y, 0, 0, 1, 1, 0.22);
  if (!inBg) return null;
  // The bubble is drawn around the centre, scaled (maskable icons keep it inside the safe zone).
  const u = (x - 0.5) / scale + 0.5;
  const v = (y - 0.5) / scale + 0.5;
  const bubble =
    inRoundRect(u, v, 0.2, 0.24, 0.8, 0.68, 0.14) || inTriangle(u, v, [0.29, 0.6], [0.45, 0.6], [0.25, 0.8]);
  const dot = [0.36, 0.5, 0.64].some((cx) => inCircle(u, v, cx, 0.46, 0.048));
  return bubble && !dot ? WHITE : GREEN;
}

function draw(size, opts) {
  const rgba = Buffer.alloc(size * size * 4);
  const N = 4; // 4×4 samples per pixel: smooth edges
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < N; sy++) {
        for (let sx = 0; sx < N; sx++) {
          const c = paint((px + (sx + 0.5) / N) / size, (py + (sy + 0.5) / N) / size, opts);
          if (!c) continue;
          r += c[0];
          g += c[1];
          b += c[2];
          a += 1;
        }
      }
      const i = (py * size + px) * 4;
      if (a > 0) {
        rgba[i] = Math.round(r / a);
        rgba[i + 1] = Math.round(g / a);
        rgba[i + 2] = Math.round(b / a);
      }
      rgba[i + 3] = Math.round((a / (N * N)) * 255);
    }
  }
  return png(size, rgba);
}

const icons = {
  'icon-192.png': draw(192, { fullBleed: false, scale: 1 }),
  'icon-512.png': draw(512, { fullBleed: false, scale: 1 }),
  // Maskable: the platform crops to its own shape; everything that matters stays in the central 80 %.
  'icon-maskable-512.png': draw(512, { fullBleed: true, scale: 0.78 }),
  'apple-touch-icon.png': draw(180, { fullBleed: true, scale: 0.9 }),
  'favicon-32.png': draw(32, { fullBleed: false, scale: 1 }),
};
for (const [name, bytes] of Object.entries(icons)) {
  writeFileSync(new URL(name, OUT), bytes);
  console.log(`${name}: ${bytes.length} bytes`);
}
