// The installed app's icons (issue 33), drawn at build time rather than committed as binaries: a white house on the
// theme's primary colour. `any` icons fill a rounded square; the maskable one fills its whole square and keeps the
// house inside the central 60 % (the safe zone every launcher's mask leaves visible is the central 80 % circle).
import { deflateSync } from 'node:zlib'

import { THEME_COLOR } from '../src/shared/site'

const BLUE = [1, 3, 5].map((i) => parseInt(THEME_COLOR.slice(i, i + 2), 16)) as [number, number, number]
const WHITE = [0xff, 0xff, 0xff] as const

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
  return Buffer.concat([head, data, crc])
}

/** An RGBA image as a PNG file. */
export function encodePng(width: number, height: number, rgba: Uint8Array): Uint8Array {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 6, 0, 0, 0], 8) // 8 bits, RGBA, deflate, no filter method, no interlace
  const rows = Buffer.alloc(height * (width * 4 + 1))
  for (let y = 0; y < height; y++) rows.set(rgba.subarray(y * width * 4, (y + 1) * width * 4), y * (width * 4 + 1) + 1)
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  return new Uint8Array(Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(rows, { level: 9 })), chunk('IEND', new Uint8Array())]))
}

/** Is (x, y), in units of the glyph's box (0..1), inside the house: a roof triangle over a body with a door cut out? */
function inHouse(x: number, y: number): boolean {
  if (y >= 0 && y < 0.45) return Math.abs(x - 0.5) <= y * (0.5 / 0.45) // the roof, its apex at the top centre
  if (y >= 0.45 && y <= 1 && x >= 0.12 && x <= 0.88) return !(x >= 0.4 && x <= 0.6 && y >= 0.68) // walls, less the door
  return false
}

/** One icon: `glyph` is the house's share of the side; `rounded` the corner radius's (0: a full square, for masks). */
function draw(size: number, glyph: number, rounded: number): Uint8Array {
  const px = new Uint8Array(size * size * 4)
  const radius = rounded * size
  const box = glyph * size
  const left = (size - box) / 2
  const top = (size - box) / 2 - box * 0.04
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const cx = Math.max(radius - x - 0.5, 0, x + 0.5 - (size - radius))
      const cy = Math.max(radius - y - 0.5, 0, y + 0.5 - (size - radius))
      const inside = radius === 0 || cx * cx + cy * cy <= radius * radius
      if (!inside) continue
      const colour = inHouse((x + 0.5 - left) / box, (y + 0.5 - top) / box) ? WHITE : BLUE
      px.set([...colour, 255], (y * size + x) * 4)
    }
  return encodePng(size, size, px)
}

/** The manifest's icons: 192 and 512 for `any`, and a 512 `maskable`. */
export const appIcons = () => [
  { key: 'icon192', name: 'icon-192.png', bytes: draw(192, 0.62, 0.2) },
  { key: 'icon512', name: 'icon-512.png', bytes: draw(512, 0.62, 0.2) },
  { key: 'iconMaskable', name: 'icon-maskable-512.png', bytes: draw(512, 0.5, 0) },
]
