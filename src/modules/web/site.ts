// The built website (src/web/dist/, made by scripts/buildWeb.ts), loaded on first use rather than
// imported: the admin commands never need it, and a server started from a fresh checkout before
// the first build still starts (its pages then answer with one sentence on how to build them).
// The import path is a literal, so `bun build --compile` still embeds the files.
import type { WebAsset } from '../../web/dist/assets'

export type { WebAsset }

export interface Site {
  /** A path Bun.file() opens: the page every website path answers with. */
  indexHtml: string
  /** URL path -> file, for the hashed assets. */
  assets: Readonly<Record<string, WebAsset>>
}

/** What a page answers while the website is not built, and what `serve` logs at start. */
export const SITE_NOT_BUILT =
  'The website is not built yet: run "npm run build:web" in the checkout (npm start does it); the API works meanwhile.'

let loading: Promise<Site | null> | undefined

/**
 * The built site, or null while src/web/dist/ has not been built. Loaded once; while it is
 * missing each call looks again, so a build made beside a running server is picked up.
 */
export function loadSite(): Promise<Site | null> {
  loading ??= import('../../web/dist/assets').then(
    ({ ASSETS, INDEX_HTML }) => ({ indexHtml: INDEX_HTML, assets: ASSETS }),
    () => {
      loading = undefined
      return null
    },
  )
  return loading
}
