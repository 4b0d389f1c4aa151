// How the app serves the website (no browser needed): the page on each page path with the
// security headers, the hashed assets cached for good, the web app manifest and its icons,
// nothing of it in the OpenAPI document, no CORS on any of it, and a built page without inline code.
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { inlineCodeIn } from '../../scripts/buildWeb'
import { PAGE_PATHS } from '../../src/pages'
import { ASSETS, INDEX_HTML } from '../../src/web/dist/assets'
import { BACKGROUND_COLOR, THEME_COLORS } from '../../src/web/manifest'
import { ok, testApp } from '../helpers'

const t = testApp()
// A share link that is live, so that its page answers 200 like the others.
const owner = await t.userWithToken('sharer')
const made = ok(await t.plugin(owner).characters.post({ givenName: 'Shared' }), 201)
const shared = ok(await t.plugin(owner).characters({ id: made.id }).share.post())
// Every page path the module declares, plus an id the page itself will call "not found".
const PAGES = [
  ...PAGE_PATHS.map((p) =>
    p
      .replace(':id', '7')
      .replace(':characterId', '8')
      .replace(':token', shared.shareToken)
      .replace(':code', 'qti_code'),
  ),
  '/characters/abc',
]

/** The headers every HTML answer carries, whatever its status. */
function expectPageHeaders(h: Headers) {
  expect(h.get('content-type')).toBe('text/html; charset=utf-8')
  expect(h.get('cache-control')).toBe('no-store')
  const csp = h.get('content-security-policy') ?? ''
  for (const directive of [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    // The service worker that keeps the site readable offline.
    "worker-src 'self'",
  ]) {
    expect(csp).toContain(directive)
  }
  expect(csp).not.toContain('unsafe-inline')
  expect(h.get('x-content-type-options')).toBe('nosniff')
  expect(h.get('referrer-policy')).toBe('no-referrer')
  expect(h.get('x-frame-options')).toBe('DENY')
  expect(h.get('access-control-allow-origin')).toBeNull()
}

// The pages, the assets and the unknown paths are outside the typed client's API: raw requests.
describe('page paths', () => {
  for (const path of PAGES) {
    test(`GET ${path}: the page, with the security headers and no CORS`, async () => {
      const response = await t.request('GET', path, { headers: { origin: 'http://evil.example' } })
      expect(response.status).toBe(200)
      expectPageHeaders(response.headers)
      const html = await response.text()
      expect(html).toStartWith('<!doctype html>')
      expect(html).toContain('<div id="app">')
    })
  }

  test('the built page loads only its own hashed script and style, and has no inline code', async () => {
    const html = await Bun.file(INDEX_HTML).text()
    expect(inlineCodeIn(html)).toEqual([])
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1])
    expect(refs.length).toBeGreaterThanOrEqual(2)
    for (const ref of refs) expect(Object.keys(ASSETS)).toContain(ref as string)
  })

  test('inlineCodeIn finds what the CSP would refuse', () => {
    expect(inlineCodeIn('<script>alert(1)</script>')).toEqual(['an inline <script>'])
    expect(inlineCodeIn('<script src="/a.js"></script>')).toEqual([])
    expect(inlineCodeIn('<style>p{}</style>')).toEqual(['a <style> element'])
    expect(inlineCodeIn('<p style="color:red">')).toEqual(['a style attribute'])
    expect(inlineCodeIn('<img onerror="x()">')).toEqual(['an inline event handler'])
  })

  test('API paths stay JSON: an unknown /api path is the API 404, not the page', async () => {
    for (const accept of ['application/json', 'text/html']) {
      const response = await t.request('GET', '/api/nothing-here', { headers: { accept } })
      expect(response.status).toBe(404)
      expect(response.headers.get('content-type')).toContain('application/json')
    }
  })

  // Raw JSON ("No such endpoint; see /api/plugin/docs") was what a person got for these.
  for (const path of ['/foo', '/s/some-token/build', '/characters/7/nothing', '/routes/7/edit/more']) {
    test(`GET ${path} from a browser: the site's own page, with 404 and the security headers`, async () => {
      const response = await t.request('GET', path, { headers: { accept: 'text/html,application/xhtml+xml,*/*' } })
      expect(response.status).toBe(404)
      expectPageHeaders(response.headers)
      expect(await response.text()).toContain('<div id="app">')
    })
  }

  test('an unknown path asked for by a script (no text/html) is the JSON 404', async () => {
    const response = await t.json('GET', '/foo', { headers: { accept: '*/*' } })
    expect(response.status).toBe(404)
    expect(response.body).toEqual({ error: 'No such endpoint; see /api/plugin/docs for the list.' })
  })
})

describe('assets', () => {
  test('each built asset is served with its type, cached as immutable, without CORS', async () => {
    const hashed = Object.entries(ASSETS).filter(([path]) => path.startsWith('/assets/'))
    const paths = hashed.map(([path]) => path)
    expect(paths.some((p) => p.endsWith('.js'))).toBe(true)
    expect(paths.some((p) => p.endsWith('.css'))).toBe(true)
    expect(paths.some((p) => p.endsWith('.png'))).toBe(true)
    for (const [path, asset] of hashed) {
      expect(path).toMatch(/^\/assets\/[\w.-]+-[a-z0-9]{6,}\.\w+$/)
      const response = await t.request('GET', path, { headers: { origin: 'http://evil.example' } })
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe(asset.type)
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.get('access-control-allow-origin')).toBeNull()
      expect((await response.arrayBuffer()).byteLength).toBe(Bun.file(asset.file).size)
    }
  })

  test('an unknown asset is a 404 error body', async () => {
    const response = await t.json<{ error: string }>('GET', '/assets/nothing-abcdef12.js')
    expect(response.status).toBe(404)
    expect(response.body.error).toBeString()
  })
})

describe('the web app manifest (installing the site as an app)', () => {
  /** The width and height a PNG's header declares. */
  const pngSize = (bytes: Uint8Array): string => {
    const view = new DataView(bytes.buffer, bytes.byteOffset)
    expect([...bytes.subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]) // "PNG"
    return `${view.getUint32(16)}x${view.getUint32(20)}`
  }

  test('is served at /manifest.webmanifest as application/manifest+json, with nosniff, revalidated, without CORS', async () => {
    const response = await t.request('GET', '/manifest.webmanifest', { headers: { origin: 'http://evil.example' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/manifest+json')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('cache-control')).toBe('no-cache')
    expect(response.headers.get('access-control-allow-origin')).toBeNull()
    const manifest = (await response.json()) as Record<string, unknown>
    expect(manifest).toMatchObject({
      id: '/',
      name: 'Quest Tracker',
      short_name: 'Quests',
      start_url: '/',
      scope: '/',
      display: 'standalone',
      background_color: BACKGROUND_COLOR,
      theme_color: THEME_COLORS.light,
    })
  })

  test('its icons are served assets: PNGs of 192 and 512 pixels, and a maskable one', async () => {
    const manifest = (await (await t.request('GET', '/manifest.webmanifest')).json()) as {
      icons: { src: string; sizes: string; type: string; purpose: string }[]
    }
    expect(manifest.icons.map(({ sizes, purpose }) => `${sizes} ${purpose}`)).toEqual([
      '192x192 any',
      '512x512 any',
      '512x512 maskable',
    ])
    for (const icon of manifest.icons) {
      expect(icon.type).toBe('image/png')
      const response = await t.request('GET', icon.src)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-type')).toBe('image/png')
      expect(pngSize(new Uint8Array(await response.arrayBuffer()))).toBe(icon.sizes)
    }
  })

  test('the page links it, an apple-touch-icon of 180 pixels, and a theme colour for each scheme', async () => {
    const html = await Bun.file(INDEX_HTML).text()
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest">')
    expect(html).toContain(
      `<meta name="theme-color" content="${THEME_COLORS.light}" media="(prefers-color-scheme: light)">`,
    )
    expect(html).toContain(
      `<meta name="theme-color" content="${THEME_COLORS.dark}" media="(prefers-color-scheme: dark)">`,
    )
    const touch = /<link rel="apple-touch-icon" href="([^"]+)">/.exec(html)?.[1] ?? ''
    const response = await t.request('GET', touch)
    expect(response.status).toBe(200)
    expect(pngSize(new Uint8Array(await response.arrayBuffer()))).toBe('180x180')
  })

  test("its colours are the site's: the header's ground in each scheme, and the page's", async () => {
    const css = await Bun.file(join(import.meta.dir, '..', '..', 'src', 'web', 'styles.css')).text()
    const [light = '', dark = ''] = css.split('@media (prefers-color-scheme: dark)')
    const variable = (block: string, name: string) => new RegExp(`--${name}: (#[0-9a-f]{6});`).exec(block)?.[1]
    expect(variable(light, 'surface')).toBe(THEME_COLORS.light)
    expect(variable(dark, 'surface')).toBe(THEME_COLORS.dark)
    expect(variable(light, 'bg')).toBe(BACKGROUND_COLOR)
  })
})

describe('the service worker (the site readable offline)', () => {
  test('is served at /sw.js as JavaScript, revalidated on every visit, with nosniff and the CSP, without CORS', async () => {
    const response = await t.request('GET', '/sw.js', { headers: { origin: 'http://evil.example' } })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(response.headers.get('cache-control')).toBe('no-cache')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'")
    expect(response.headers.get('access-control-allow-origin')).toBeNull()
    // At the root already: it may serve every page without widening its scope.
    expect(response.headers.get('service-worker-allowed')).toBeNull()
    expect(await response.text()).toBe(await Bun.file(ASSETS['/sw.js']?.file ?? '').text())
  })

  test('keeps the whole app shell of its build: the page and every other built file', async () => {
    const worker = await Bun.file(ASSETS['/sw.js']?.file ?? '').text()
    const shell = /\["\/"(?:,"[^"]+")*\]/.exec(worker)?.[0]
    const files = JSON.parse(shell ?? '[]') as string[]
    expect(files.sort()).toEqual(['/', ...Object.keys(ASSETS).filter((path) => path !== '/sw.js')].sort())
  })

  test('is a classic script with no import left in it (a worker registered without type: module)', async () => {
    const worker = await Bun.file(ASSETS['/sw.js']?.file ?? '').text()
    expect(worker).not.toMatch(/^\s*import[\s{*]|\bexport\s*\{/m)
  })
})

test('the OpenAPI document lists none of the website paths', async () => {
  const paths = Object.keys(ok(await t.api['openapi.json'].get()).paths)
  expect(
    paths.filter(
      (p) =>
        p === '/' ||
        p === '/login' ||
        p === '/account' ||
        p.startsWith('/assets') ||
        p === '/sw.js' ||
        p.startsWith('/s/') ||
        p.startsWith('/routes'),
    ),
  ).toEqual([])
  expect(paths.filter((p) => /^\/characters/.test(p))).toEqual([])
})
