// The website: the page HTML on each page path and the hashed assets, built by
// scripts/build-web.ts and embedded in the executable. Pages are for people, so no route here
// is in the OpenAPI document. The page is the same on every path: it reads the path itself.
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import { NotFound } from '../../http/errors'
import { compressible, maybeGzipped } from '../../http/gzip'
import { PAGE_HEADERS } from '../../http/security'
import { ASSETS, INDEX_HTML } from '../../web/dist/assets'

/** The pages the site answers with its HTML (the client picks the view by path). */
export const PAGE_PATHS = [
  '/',
  '/login',
  '/account',
  '/characters/:id',
  '/characters/:id/build',
  '/characters/:id/stats',
  '/routes',
  '/routes/new',
  '/routes/:id',
  '/routes/:id/edit',
  '/s/:token',
] as const

/** Asset names carry a content hash: a changed file is a new URL, so they never need revalidating. */
const ASSET_CACHE = 'public, max-age=31536000, immutable'

const hidden = { detail: { hide: true } }

export function webModule(_deps: AppDeps) {
  let page: Promise<string> | undefined
  const html = async () => new Response(await (page ??= Bun.file(INDEX_HTML).text()), { headers: PAGE_HEADERS })

  // Compressed once per file, on first request (the files are embedded and never change).
  const gzipped = new Map<string, Uint8Array<ArrayBuffer>>()
  const app = new Elysia({ name: 'web' }).get(
    '/assets/*',
    async ({ path, request }) => {
      const asset = ASSETS[path]
      if (!asset) throw new NotFound('No such file.')
      const headers = { 'content-type': asset.type, 'cache-control': ASSET_CACHE, 'x-content-type-options': 'nosniff' }
      if (!compressible(asset.type)) return new Response(Bun.file(asset.file), { headers })
      const bytes = gzipped.has(asset.file) ? undefined : await Bun.file(asset.file).bytes()
      if (bytes) gzipped.set(asset.file, Bun.gzipSync(bytes))
      return maybeGzipped(
        request,
        Bun.file(asset.file),
        () => gzipped.get(asset.file) as Uint8Array<ArrayBuffer>,
        headers,
      )
    },
    hidden,
  )
  // The page reads its own path (main.tsx): an id that is no number shows "not found" there.
  const id = { ...hidden, params: t.Object({ id: t.String({ maxLength: 40 }) }) }
  return app
    .get('/', html, hidden)
    .get('/login', html, hidden)
    .get('/account', html, hidden)
    .get('/characters/:id', html, id)
    .get('/characters/:id/build', html, id)
    .get('/characters/:id/stats', html, id)
    .get('/routes', html, hidden)
    .get('/routes/new', html, hidden)
    .get('/routes/:id', html, id)
    .get('/routes/:id/edit', html, id)
    .get('/s/:token', html, { ...hidden, params: t.Object({ token: t.String({ maxLength: 200 }) }) })
}
