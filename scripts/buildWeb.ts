// Builds the website (src/web) into src/web/dist: hashed JS and CSS, the page HTML, and a
// generated module assets.ts that imports every output file `with { type: 'file' }`, so that
// `bun build --compile` embeds them in dist/quest-tracker and the web module can serve them.
//
// Why a build step and not Bun's HTML-import routes: Bun 1.4.5 cannot put headers (our CSP)
// on an HTML-import route (oven-sh/bun#41362), and in development it injects an inline script
// the CSP forbids. Usage: `bun scripts/buildWeb.ts` (npm run build:web).
//
// The web app manifest is written here too (src/web/manifest.ts): Bun bundles what the page
// links, but not what a manifest names, so its icons are copied beside the other assets under
// hashed names, and the manifest, naming them, goes to /manifest.webmanifest, an address that
// never changes; its link is added to the built page (Bun's bundler would try to bundle it).
//
// The service worker (src/web/sw.ts) is built last, on its own, to /sw.js: a worker's script
// keeps one address (the browser looks there for a new one), and it is told the build's files,
// which it keeps as the app shell, and a version named by them, so a new build is a new worker.
import { copyFile, mkdir, readdir, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, extname, join, relative } from 'node:path'
import { type IconFile, MANIFEST_ICONS, webManifest } from '../src/web/manifest'

const root = join(import.meta.dir, '..')
const source = join(root, 'src', 'web')
const outdir = join(source, 'dist')

/** Content types by extension; anything else in the output is a mistake worth stopping for. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
}

const MANIFEST_LINK = '<link rel="manifest" href="/manifest.webmanifest">'

/** Where the server's drawing of the tracker's first screen is built (src/modules/web/site.ts loads it). */
const FIRST_SCREEN_MODULE = join(outdir, 'server', 'firstScreen.js')

/**
 * The boot script (src/web/boot.ts), a classic script of its own beside the bundle: it starts the
 * first screen's reads while the bundle loads. `async`: it runs as soon as it has come, never
 * holding up the page; when the bundle runs first, the boot script starts nothing.
 */
async function buildBootScript(): Promise<string> {
  const result = await Bun.build({
    entrypoints: [join(source, 'boot.ts')],
    outdir,
    minify: true,
    target: 'browser',
    format: 'iife',
    naming: { entry: 'assets/[name]-[hash].[ext]' },
  })
  const output = result.outputs[0]
  if (!result.success || !output) {
    for (const log of result.logs) console.error(log)
    throw new Error('buildWeb: the boot script did not build')
  }
  return `/${relative(outdir, output.path).split('\\').join('/')}`
}

/** Where the service worker is served: the site's root, so that it may serve every page. */
export const SERVICE_WORKER_FILE = 'sw.js'

/** "icon-192.png" -> "assets/icon-192-k3v9x0qa.png": named by content, like Bun's own assets. */
async function copyHashed(from: string, file: string): Promise<string> {
  const bytes = await Bun.file(from).bytes()
  const hash = Bun.hash(bytes).toString(36).padStart(8, '0').slice(0, 8)
  const name = `assets/${file.replace(/(\.[^.]+)$/, `-${hash}$1`)}`
  await copyFile(from, join(outdir, name))
  return name
}

/** The manifest's icons copied into the output, and the manifest naming them. */
async function writeManifest(): Promise<void> {
  const paths = new Map<IconFile, string>()
  for (const { file } of MANIFEST_ICONS) paths.set(file, `/${await copyHashed(join(source, 'icons', file), file)}`)
  const manifest = webManifest((file) => paths.get(file) as string)
  await writeFile(join(outdir, 'manifest.webmanifest'), `${JSON.stringify(manifest, null, 2)}\n`)
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true })
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name))
}

/** The page must run under `script-src 'self'; style-src 'self'`: no inline script, style or handler. */
export function inlineCodeIn(html: string): string[] {
  const problems: string[] = []
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    if (!/\bsrc=/i.test(match[1] ?? '') || (match[2] ?? '').trim() !== '') problems.push('an inline <script>')
  }
  if (/<style\b/i.test(html)) problems.push('a <style> element')
  if (/\sstyle=/i.test(html)) problems.push('a style attribute')
  if (/\son[a-z]+=/i.test(html)) problems.push('an inline event handler')
  return problems
}

/**
 * /sw.js: the worker, given the shell to keep (the page, at `/`, and every other built file) and
 * a version that changes whenever any of them does (their names carry their content's hash; the
 * page's text is hashed here).
 */
async function buildServiceWorker(assetPaths: string[]): Promise<void> {
  const shell = ['/', ...assetPaths]
  const page = await Bun.file(join(outdir, 'index.html')).text()
  const version = Bun.hash(`${page}\n${shell.join('\n')}`).toString(36)
  const result = await Bun.build({
    entrypoints: [join(source, 'sw.ts')],
    outdir,
    minify: true,
    target: 'browser',
    // A classic script: a worker registered without `type: 'module'` runs in every browser.
    format: 'iife',
    naming: { entry: SERVICE_WORKER_FILE },
    define: { SHELL_VERSION: JSON.stringify(version), SHELL_FILES: JSON.stringify(shell) },
  })
  if (!result.success) {
    for (const log of result.logs) console.error(log)
    throw new Error('buildWeb: the service worker did not build')
  }
}

export async function buildWeb(): Promise<{ files: string[] }> {
  await rm(outdir, { recursive: true, force: true })
  await mkdir(outdir, { recursive: true })
  const result = await Bun.build({
    entrypoints: [join(source, 'index.html')],
    outdir,
    publicPath: '/',
    minify: true,
    target: 'browser',
    // The JSX runtime for production, whatever NODE_ENV the build runs with: the development one
    // keeps each element's source and owner (\`__source\`, \`__self\`), work no page needs.
    jsx: { development: false },
    // Code only one page needs (the stats page's chart library) is its own chunk, loaded there.
    splitting: true,
    // Content hashes in every asset name: they are served as immutable for a year.
    naming: { entry: '[name].[ext]', chunk: 'assets/[name]-[hash].[ext]', asset: 'assets/[name]-[hash].[ext]' },
  })
  if (!result.success) {
    for (const log of result.logs) console.error(log)
    throw new Error('buildWeb: Bun.build failed')
  }

  await writeManifest()
  const boot = await buildBootScript()

  const built = (await filesUnder(outdir)).sort()
  const html = built.find((f) => f.endsWith('index.html'))
  if (!html) throw new Error('buildWeb: no index.html in the output')
  const page = await Bun.file(html).text()
  if (!page.includes('</head>')) throw new Error('buildWeb: the built page has no </head>')
  // The boot script first in the head, so that its reads start before anything else is fetched.
  // `fetchpriority="high"`: an async script is fetched at low priority, and Chromium held it back
  // behind the stylesheet and the bundle (it came 100 ms after them on a cold load).
  const bootTag = `<script async fetchpriority="high" src="${boot}"></script>`
  const withBoot = page.replace(/<link rel="stylesheet"/, `${bootTag}$&`)
  if (withBoot === page)
    throw new Error('buildWeb: the built page has no stylesheet link to put the boot script before')
  await writeFile(html, withBoot.replace('</head>', `${MANIFEST_LINK}</head>`))
  const problems = inlineCodeIn(await Bun.file(html).text())
  if (problems.length > 0) throw new Error(`buildWeb: the built page has ${problems.join(', ')}`)

  await buildServiceWorker(built.filter((f) => f !== html).map((f) => `/${relative(outdir, f).split('\\').join('/')}`))
  const files = (await filesUnder(outdir)).sort()

  const lines = [
    '// @ts-nocheck -- generated by scripts/buildWeb.ts; do not edit. (The file imports have no types.)',
    '// Every file of the built website, imported as a file so `bun build --compile` embeds it.',
  ]
  const table: string[] = []
  files.forEach((file, i) => {
    const rel = relative(outdir, file).split('\\').join('/')
    const type = CONTENT_TYPES[extname(file)]
    if (!type) throw new Error(`buildWeb: no content type for ${rel}`)
    lines.push(`import f${i} from './${rel}' with { type: 'file' }`)
    if (file !== html) table.push(`  '/${rel}': { file: f${i}, type: '${type}' },`)
  })
  lines.push(
    '',
    'export interface WebAsset {',
    '  /** A path Bun.file() opens (inside the executable when compiled). */',
    '  file: string',
    '  type: string',
    '}',
    '',
    '/** The page every website path answers with. */',
    `export const INDEX_HTML: string = f${files.indexOf(html)}`,
    '',
    '/** URL path -> file, for the hashed assets and the manifest. */',
    'export const ASSETS: Readonly<Record<string, WebAsset>> = {',
    ...table,
    '}',
    '',
    "/** The server's drawing of the tracker's first screen (src/modules/web/screen.ts says what it is). */",
    `export const loadFirstScreenDrawing = () => import('./${relative(outdir, FIRST_SCREEN_MODULE).split('\\').join('/')}')`,
    '',
  )
  await writeFile(join(outdir, 'assets.ts'), lines.join('\n'))
  // After the table: the server's drawing is no file of the site, never served.
  const drawing = await buildFirstScreenDrawing()
  return { files: [...files, drawing].map((f) => relative(root, f)) }
}

/**
 * The tracker's first screen as the server draws it (src/web/drawnFirstScreen.tsx): the site's
 * components in a module for Bun, JSX compiled as the site's is. Not in the site's table of files.
 */
async function buildFirstScreenDrawing(): Promise<string> {
  const result = await Bun.build({
    entrypoints: [join(source, 'drawnFirstScreen.tsx')],
    outdir: dirname(FIRST_SCREEN_MODULE),
    minify: true,
    target: 'bun',
    format: 'esm',
    jsx: { development: false },
    naming: { entry: basename(FIRST_SCREEN_MODULE) },
  })
  if (!result.success) {
    for (const log of result.logs) console.error(log)
    throw new Error('buildWeb: the first screen drawing did not build')
  }
  return FIRST_SCREEN_MODULE
}

if (import.meta.main) {
  const { files } = await buildWeb()
  for (const file of files) console.log(`  ${file}  ${(Bun.file(join(root, file)).size / 1024).toFixed(1)} KiB`)
}
