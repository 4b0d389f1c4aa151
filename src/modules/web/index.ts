// The website: the page HTML on each page path and the hashed assets, built by
// scripts/buildWeb.ts and embedded in the executable. Pages are for people, so no route here
// is in the OpenAPI document. The page is the same on every path: it reads the path itself, and
// shows its own "not found" for a path it does not know, which the server answers with a 404.
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import { HttpError, NotFound, noSuchEndpoint } from '../../http/errors'
import { compressible, maybeGzipped } from '../../http/gzip'
import { CONTENT_SECURITY_POLICY, PAGE_HEADERS } from '../../http/security'
import { PAGE_PATHS } from '../../pages'
import { isLiveShareLink } from '../share/service'
import { withTrackerFirstScreen } from './firstScreen'
import { loadSite, SITE_NOT_BUILT, type Site } from './site'

/** Asset names carry a content hash: a changed file is a new URL, so they never need revalidating. */
const ASSET_CACHE = 'public, max-age=31536000, immutable'

/**
 * The web app manifest keeps one address (an installed app looks for its updates there), so it is
 * asked again on every use; it is under a kilobyte.
 */
export const MANIFEST_PATH = '/manifest.webmanifest'
const MANIFEST_HEADERS = {
  'content-type': 'application/manifest+json',
  'cache-control': 'no-cache',
  'x-content-type-options': 'nosniff',
}

/**
 * The service worker (src/web/sw.ts) keeps one address too, at the root so that it may serve
 * every page (no Service-Worker-Allowed needed). Browsers ask for it again on each visit and
 * install it when a byte differs, so it is never taken from the HTTP cache unchecked. The policy
 * is the page's: it governs what the worker may fetch (its own origin).
 */
export const SERVICE_WORKER_PATH = '/sw.js'
const SERVICE_WORKER_HEADERS = {
  'content-type': 'text/javascript; charset=utf-8',
  'cache-control': 'no-cache',
  'x-content-type-options': 'nosniff',
  'content-security-policy': CONTENT_SECURITY_POLICY,
}

const hidden = { detail: { hide: true } }

/** The built site, or a 503 that says how to build it. */
async function builtSite(): Promise<Site> {
  const site = await loadSite()
  if (!site) throw new HttpError(503, SITE_NOT_BUILT)
  return site
}

/** A navigation by a browser (it asks for HTML), as opposed to an API client or a script. */
const wantsPage = (request: Request): boolean => (request.headers.get('accept') ?? '').includes('text/html')

export function webModule(deps: AppDeps) {
  const { db } = deps
  let page: Promise<string> | undefined
  const pageText = () => (page ??= builtSite().then((site) => Bun.file(site.indexHtml).text()))
  const html = async (status = 200) => new Response(await pageText(), { status, headers: PAGE_HEADERS })
  const ok = () => html()
  // The tracker comes with its first screen drawn in, for its owner (firstScreen.ts).
  const tracker = async ({ params, request }: { params: { id: string }; request: Request }) => {
    const text = await pageText()
    const id = Number(params.id)
    const drawing = Number.isSafeInteger(id) && id > 0 ? await (await builtSite()).drawing() : null
    const drawn = drawing && withTrackerFirstScreen(deps, drawing, request, id, text)
    return new Response(drawn ?? text, { headers: PAGE_HEADERS })
  }

  // Compressed once per file, on first request (the files are embedded and never change).
  const gzipped = new Map<string, Uint8Array<ArrayBuffer>>()
  const app = new Elysia({ name: 'web' }).get(
    '/assets/*',
    async ({ path, request }) => {
      const asset = (await builtSite()).assets[path]
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
  app.get(
    MANIFEST_PATH,
    async () => {
      const manifest = (await builtSite()).assets[MANIFEST_PATH]
      if (!manifest) throw new NotFound('No such file.')
      return new Response(Bun.file(manifest.file), { headers: MANIFEST_HEADERS })
    },
    hidden,
  )
  app.get(
    SERVICE_WORKER_PATH,
    async () => {
      const worker = (await builtSite()).assets[SERVICE_WORKER_PATH]
      if (!worker) throw new NotFound('No such file.')
      return new Response(Bun.file(worker.file), { headers: SERVICE_WORKER_HEADERS })
    },
    hidden,
  )
  // Every page path of the site (web/paths.ts), answered with the page, which reads its own path
  // (main.tsx): an id that is no number shows "not found" there. A share link that was changed
  // or stopped is dead: the same 404 page a wrong link gets.
  const id = { ...hidden, params: t.Object({ id: t.String({ maxLength: 40 }) }) }
  const ids = {
    ...hidden,
    params: t.Object({ id: t.String({ maxLength: 40 }), characterId: t.String({ maxLength: 40 }) }),
  }
  const token = { ...hidden, params: t.Object({ token: t.String({ maxLength: 200 }) }) }
  // An invite's page says itself whether the code is live (it asks GET /api/invites/{code}).
  const code = { ...hidden, params: t.Object({ code: t.String({ maxLength: 200 }) }) }
  for (const path of PAGE_PATHS) {
    if (path === '/s/:token') app.get(path, ({ params }) => html(isLiveShareLink(db, params.token) ? 200 : 404), token)
    else if (path === '/characters/:id') app.get(path, tracker, id)
    else
      app.get(
        path,
        ok,
        path.includes(':characterId') ? ids : path.includes(':id') ? id : path.includes(':code') ? code : hidden,
      )
  }
  return (
    app
      // Any other path: a browser gets the site's own "not found" page, anything else the API's answer.
      .get(
        '/*',
        ({ path, request }) => {
          if (path.startsWith('/api/') || !wantsPage(request)) throw noSuchEndpoint()
          return html(404)
        },
        hidden,
      )
  )
}
