// Draws the app's PNG icons from code: the favicon's picture (src/web/favicon.svg, a white tick on
// a brown rounded square, on a 32-unit grid) rasterized with 4×4 samples a pixel and written as
// PNG with node:zlib, so that no image tool or browser is needed. Writes src/web/icons/, which is
// committed; run it again after changing the picture: `bun scripts/icons.ts`.
//
// - icon-192.png, icon-512.png: the rounded square on a transparent ground (the manifest's "any").
// - icon-maskable-512.png: the square filled to the edges, for launchers that cut their own shape
//   (the manifest's "maskable"); the tick stays inside the central circle they all keep (40% radius).
// - apple-touch-icon.png (180): filled to the edges too, since iOS rounds the corners itself and
//   shows transparency as black.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { deflateSync } from 'node:zlib'

const GRID = 32
/** The favicon's colours: the square, and the tick. */
const SQUARE: Rgb = [0x7a, 0x4b, 0x16]
const TICK: Rgb = [0xff, 0xff, 0xff]
/** The favicon's tick: M9 17 l5 5 9-12, stroke 4, round caps and joins. */
const TICK_POINTS: readonly [number, number][] = [
  [9, 17],
  [14, 22],
  [23, 10],
]
const TICK_HALF_WIDTH = 2
const CORNER_RADIUS = 6
const SAMPLES = 4

type Rgb = readonly [number, number, number]

export interface IconSpec {
  file: string
  size: number
  /** Rounded corners on a transparent ground, or the square filled to the edges. */
  shape: 'rounded' | 'full'
}

export const ICONS: readonly IconSpec[] = [
  { file: 'icon-192.png', size: 192, shape: 'rounded' },
  { file: 'icon-512.png', size: 512, shape: 'rounded' },
  { file: 'icon-maskable-512.png', size: 512, shape: 'full' },
  { file: 'apple-touch-icon.png', size: 180, shape: 'full' },
]

function insideRoundedSquare(x: number, y: number): boolean {
  if (x < 0 || y < 0 || x > GRID || y > GRID) return false
  const cx = Math.min(Math.max(x, CORNER_RADIUS), GRID - CORNER_RADIUS)
  const cy = Math.min(Math.max(y, CORNER_RADIUS), GRID - CORNER_RADIUS)
  return (x - cx) ** 2 + (y - cy) ** 2 <= CORNER_RADIUS ** 2
}

function distanceToSegment(x: number, y: number, [ax, ay]: [number, number], [bx, by]: [number, number]): number {
  const dx = bx - ax
  const dy = by - ay
  const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)))
  return Math.hypot(x - (ax + t * dx), y - (ay + t * dy))
}

function onTick(x: number, y: number): boolean {
  for (let i = 1; i < TICK_POINTS.length; i++) {
    const a = TICK_POINTS[i - 1] as [number, number]
    const b = TICK_POINTS[i] as [number, number]
    if (distanceToSegment(x, y, a, b) <= TICK_HALF_WIDTH) return true
  }
  return false
}

/** RGBA pixels, row by row: each pixel the average of SAMPLES² points, alpha-weighted. */
export function drawIcon({ size, shape }: IconSpec): Uint8Array {
  const pixels = new Uint8Array(size * size * 4)
  const scale = GRID / size
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let covered = 0
      const sum = [0, 0, 0]
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const x = (px + (sx + 0.5) / SAMPLES) * scale
          const y = (py + (sy + 0.5) / SAMPLES) * scale
          if (shape === 'rounded' && !insideRoundedSquare(x, y)) continue
          const colour = onTick(x, y) ? TICK : SQUARE
          covered++
          for (let c = 0; c < 3; c++) sum[c] = (sum[c] as number) + colour[c]
        }
      }
      const at = (py * size + px) * 4
      if (covered === 0) continue
      for (let c = 0; c < 3; c++) pixels[at + c] = Math.round((sum[c] as number) / covered)
      pixels[at + 3] = Math.round((covered / (SAMPLES * SAMPLES)) * 255)
    }
  }
  return pixels
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length)
  const view = new DataView(out.buffer)
  view.setUint32(0, data.length)
  out.set(new TextEncoder().encode(type), 4)
  out.set(data, 8)
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)))
  return out
}

/** An 8-bit RGBA PNG of `pixels` (size × size), no filtering, deflated at the highest level. */
export function encodePng(size: number, pixels: Uint8Array): Uint8Array {
  const header = new Uint8Array(13)
  const view = new DataView(header.buffer)
  view.setUint32(0, size)
  view.setUint32(4, size)
  header.set([8, 6, 0, 0, 0], 8) // bit depth 8, colour type 6 (RGBA), deflate, no filter, no interlace
  const rows = new Uint8Array(size * (size * 4 + 1))
  for (let y = 0; y < size; y++) rows.set(pixels.subarray(y * size * 4, (y + 1) * size * 4), y * (size * 4 + 1) + 1)
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', new Uint8Array(0)),
  ]
  const png = new Uint8Array(parts.reduce((total, part) => total + part.length, 0))
  let offset = 0
  for (const part of parts) {
    png.set(part, offset)
    offset += part.length
  }
  return png
}

if (import.meta.main) {
  const folder = join(import.meta.dir, '..', 'src', 'web', 'icons')
  await mkdir(folder, { recursive: true })
  for (const icon of ICONS) {
    const png = encodePng(icon.size, drawIcon(icon))
    await writeFile(join(folder, icon.file), png)
    console.log(`  src/web/icons/${icon.file}  ${icon.size}×${icon.size}  ${(png.length / 1024).toFixed(1)} KiB`)
  }
}
