// The committed icons (src/web/icons/) are what scripts/icons.ts draws: each PNG's pixels,
// inflated, equal the drawing's, so a changed picture cannot ship with stale icons. And the
// maskable ones keep the tick inside the circle launchers never cut (40% of the size).
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { inflateSync } from 'node:zlib'
import { drawIcon, ICONS } from '../../scripts/icons'

const FOLDER = join(import.meta.dir, '..', '..', 'src', 'web', 'icons')

/** Size and RGBA pixels of an 8-bit RGBA, unfiltered PNG (what encodePng writes). */
function decode(png: Uint8Array): { size: number; pixels: Uint8Array } {
  const view = new DataView(png.buffer, png.byteOffset)
  const size = view.getUint32(16)
  expect(png[24]).toBe(8) // bit depth
  expect(png[25]).toBe(6) // RGBA
  const data: Uint8Array[] = []
  for (let at = 8; at < png.length; ) {
    const length = view.getUint32(at)
    const type = new TextDecoder().decode(png.subarray(at + 4, at + 8))
    if (type === 'IDAT') data.push(png.subarray(at + 8, at + 8 + length))
    at += 12 + length
  }
  const rows = inflateSync(Buffer.concat(data))
  const pixels = new Uint8Array(size * size * 4)
  for (let y = 0; y < size; y++) {
    expect(rows[y * (size * 4 + 1)]).toBe(0) // no filter
    pixels.set(rows.subarray(y * (size * 4 + 1) + 1, (y + 1) * (size * 4 + 1)), y * size * 4)
  }
  return { size, pixels }
}

describe('the app icons', () => {
  for (const icon of ICONS) {
    test(`${icon.file} is the drawing, ${icon.size} pixels square`, async () => {
      const { size, pixels } = decode(await Bun.file(join(FOLDER, icon.file)).bytes())
      expect(size).toBe(icon.size)
      expect(Buffer.from(pixels).equals(Buffer.from(drawIcon(icon)))).toBe(true)
    })
  }

  test('a filled icon is opaque to its edges; a rounded one is clear in its corners', () => {
    for (const icon of ICONS) {
      const pixels = drawIcon(icon)
      const alphaAt = (x: number, y: number) => pixels[(y * icon.size + x) * 4 + 3]
      expect(alphaAt(0, 0)).toBe(icon.shape === 'full' ? 255 : 0)
      expect(alphaAt(icon.size >> 1, 0)).toBe(255)
    }
  })

  test('in the maskable icon, every white pixel lies inside the central circle of 40% radius', () => {
    const icon = ICONS.find((i) => i.file === 'icon-maskable-512.png')
    if (!icon) throw new Error('no maskable icon')
    const pixels = drawIcon(icon)
    const centre = icon.size / 2
    let white = 0
    let outside = 0
    for (let y = 0; y < icon.size; y++) {
      for (let x = 0; x < icon.size; x++) {
        if ((pixels[(y * icon.size + x) * 4] as number) < 0xc0) continue
        white++
        if (Math.hypot(x + 0.5 - centre, y + 0.5 - centre) >= icon.size * 0.4) outside++
      }
    }
    expect(white).toBeGreaterThan(1000)
    expect(outside).toBe(0)
  })
})
