// The website's large answers (its script and styles, the quest catalog) are sent compressed to
// a browser that accepts gzip, and plain to a client that does not, with the same content.
import { expect, test } from 'bun:test'
import { syncCatalog } from '../../src/modules/catalog/sync'
import { ASSETS } from '../../src/web/dist/assets'
import { testApp } from '../helpers'

const gzip = { 'accept-encoding': 'gzip, deflate, br' }

test('the catalog: gzip when accepted, plain otherwise, the same JSON either way', async () => {
  const t = testApp()
  const synced = await syncCatalog(
    { db: t.db, clock: t.clock, logger: { debug() {}, info() {}, warn() {}, error() {} } },
    `${import.meta.dir}/../fixtures/catalog-small.json`,
  )
  expect(synced.ok).toBe(true)
  // Raw requests throughout: the test compares the bytes sent, compressed or not, which the typed
  // client would have read and parsed.
  const plain = await t.request('GET', '/api/quests')
  expect(plain.headers.get('content-encoding')).toBeNull()
  expect(plain.headers.get('vary')).toBe('Accept-Encoding')
  const text = await plain.text()
  expect(JSON.parse(text)).toHaveProperty('count', 12)
  const packed = await t.request('GET', '/api/quests', { headers: gzip })
  expect(packed.headers.get('content-encoding')).toBe('gzip')
  expect(packed.headers.get('content-type')).toContain('application/json')
  const bytes = new Uint8Array(await packed.arrayBuffer())
  expect(bytes.length).toBeLessThan(text.length / 2)
  expect(new TextDecoder().decode(Bun.gunzipSync(bytes))).toBe(text)
  // The ETag still answers 304 without a body.
  const again = await t.request('GET', '/api/quests', {
    headers: { ...gzip, 'if-none-match': plain.headers.get('etag') ?? '' },
  })
  expect(again.status).toBe(304)
  // The plugin's GET /quests sends the same bytes, serialized once per sync.
  const token = await t.userWithToken('ann')
  const plugin = await t.request('GET', '/api/plugin/quests', { token })
  expect(plugin.headers.get('content-encoding')).toBeNull()
  expect(await plugin.text()).toBe(text)
  const pluginPacked = await t.request('GET', '/api/plugin/quests', { token, headers: gzip })
  expect(pluginPacked.headers.get('content-encoding')).toBe('gzip')
  expect(new TextDecoder().decode(Bun.gunzipSync(new Uint8Array(await pluginPacked.arrayBuffer())))).toBe(text)
})

test("the site's script: gzip when accepted, the same bytes as the file", async () => {
  const t = testApp()
  const [path, asset] = Object.entries(ASSETS).find(([p]) => p.endsWith('.js')) ?? []
  expect(path).toBeString()
  const file = await Bun.file((asset as { file: string }).file).bytes()
  const packed = await t.request('GET', path as string, { headers: gzip })
  expect(packed.status).toBe(200)
  expect(packed.headers.get('content-encoding')).toBe('gzip')
  expect(packed.headers.get('cache-control')).toContain('immutable')
  const bytes = new Uint8Array(await packed.arrayBuffer())
  expect(bytes.length).toBeLessThan(file.length / 2)
  expect(Bun.gunzipSync(bytes)).toEqual(file)
  const plain = await t.request('GET', path as string)
  expect(plain.headers.get('content-encoding')).toBeNull()
  expect(new Uint8Array(await plain.arrayBuffer())).toEqual(file)
})
