// The API's documents, served: the Markdown reference (`/api/plugin/` and `/api/plugin/docs`), the
// OpenAPI document at its three paths, and the interactive /docs page (Swagger UI served from this
// binary, no CDN). Both documents are built from the finished app's routes on first use.
import { Elysia } from 'elysia'
import swaggerCss from 'swagger-ui-dist/swagger-ui.css' with { type: 'file' }
// Imported as files so `bun build --compile` embeds them in the executable.
import swaggerBundle from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'file' }
import { DOC_PATHS } from '../http/api'
import { DOCS_PAGE_HEADERS } from '../http/security'
import { renderMarkdown } from './markdown'
import { buildOpenApiDocument, type DocumentedApp, type OpenApiDocument } from './openapi'

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

/**
 * `app` is the finished application (its routes are documented); `tokenIdleDays` is the server's
 * TOKEN_IDLE_DAYS, which the reference states.
 */
export function apiDocsModule(app: () => DocumentedApp, tokenIdleDays: number) {
  let document: OpenApiDocument | undefined
  let markdown: string | undefined
  const openapi = () => (document ??= buildOpenApiDocument(app()))
  const reference = () =>
    new Response((markdown ??= renderMarkdown(openapi(), { tokenIdleDays })), {
      headers: { 'content-type': 'text/markdown; charset=utf-8' },
    })
  const assetHeaders = (type: string) => ({
    'content-type': type,
    'cache-control': 'public, max-age=86400',
    'x-content-type-options': 'nosniff',
  })
  const asset = (path: string, type: string) => () => new Response(Bun.file(path), { headers: assetHeaders(type) })

  return new Elysia()
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
