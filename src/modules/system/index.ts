// GET /api/health, GET /api/plugin/info, the Markdown reference, the OpenAPI document at its
// three paths, and the interactive /docs page (Swagger UI served from this binary, no CDN).
import { Elysia } from 'elysia'
import swaggerCss from 'swagger-ui-dist/swagger-ui.css' with { type: 'file' }
// Imported as files so `bun build --compile` embeds them in the executable.
import swaggerBundle from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'file' }
import type { DiskSpace } from '../../db/space'
import type { AppDeps } from '../../deps'
import { errors } from '../../http/model'
import { DOCS_PAGE_HEADERS } from '../../http/security'
import type { Guard } from '../auth/guard'
import { renderMarkdown } from './markdown'
import { Health, Info } from './model'
import { buildOpenApiDocument, type DocumentedApp, type OpenApiDocument } from './openapi'
import { DOC_PATHS, health, info } from './service'

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Quest Tracker API</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/init.js"></script>
</body>
</html>
`

// A file, not an inline script, so the page's Content-Security-Policy can forbid inline script.
// No persistAuthorization: a pasted token is not kept in localStorage for the next visitor.
const DOCS_INIT = `window.ui = SwaggerUIBundle({ url: '${DOC_PATHS.openapi}', dom_id: '#swagger-ui' })\n`

const hidden = { detail: { hide: true } }

const markdownDetail = {
  summary: 'Markdown reference of this API',
  description: 'No auth. Rendered from the OpenAPI document.',
  security: [],
  tags: ['System'],
  responses: {
    200: { description: 'The reference.', content: { 'text/markdown': { schema: { type: 'string' as const } } } },
  },
}

/** `app` is the finished application; the documents are built from its routes on first use. */
export function systemModule(deps: AppDeps, guard: Guard, space: DiskSpace, app: () => DocumentedApp) {
  let document: OpenApiDocument | undefined
  let markdown: string | undefined
  const openapi = () => (document ??= buildOpenApiDocument(app()))
  const reference = () =>
    new Response((markdown ??= renderMarkdown(openapi(), { tokenIdleDays: deps.config.tokenIdleDays })), {
      headers: { 'content-type': 'text/markdown; charset=utf-8' },
    })
  const assetHeaders = (type: string) => ({
    'content-type': type,
    'cache-control': 'public, max-age=86400',
    'x-content-type-options': 'nosniff',
  })
  const asset = (path: string, type: string) => () => new Response(Bun.file(path), { headers: assetHeaders(type) })

  return new Elysia()
    .use(guard)
    .get(
      '/api/health',
      ({ set }) => {
        const report = health(deps.db, deps.logger, space)
        if (!report.ok) set.status = 503
        return report
      },
      {
        // The 503 is an Error that also says `ok: false` (and the schema version when it can be read).
        response: { 200: Health, ...errors(503) },
        detail: {
          summary: 'Health check',
          description:
            'No auth. 200 `{"ok": true, "schemaVersion": 5}`: the database answers, with its schema version. 503 `{"ok": false, "error": "<why>"}` when the database cannot be read. Docker\'s HEALTHCHECK (`quest-tracker healthcheck`) asks it.',
          security: [],
          tags: ['System'],
        },
      },
    )
    .get('/api/plugin/info', ({ user }) => info(deps.db, user, deps.config.catalogSourceUrl), {
      auth: true,
      response: { 200: Info },
      detail: { summary: 'Server information, counts and feature flags', tags: ['System'] },
    })
    .get('/api/plugin/', reference, { detail: markdownDetail })
    .get('/api/plugin/docs', reference, { detail: markdownDetail })
    .get('/api/openapi.json', openapi, hidden)
    .get('/api/plugin/openapi.json', openapi, hidden)
    .get('/openapi.json', openapi, hidden)
    .get('/docs', () => new Response(DOCS_PAGE, { headers: DOCS_PAGE_HEADERS }), hidden)
    .get(
      '/docs/assets/init.js',
      () => new Response(DOCS_INIT, { headers: assetHeaders('text/javascript; charset=utf-8') }),
      hidden,
    )
    .get('/docs/assets/swagger-ui.css', asset(swaggerCss, 'text/css; charset=utf-8'), hidden)
    .get('/docs/assets/swagger-ui-bundle.js', asset(swaggerBundle, 'text/javascript; charset=utf-8'), hidden)
}
