// The built website (src/web/dist/, made by scripts/buildWeb.ts), loaded on first use rather than
// imported: the admin commands never need it, and a server started from a fresh checkout before
// the first build still starts (its pages then answer with one sentence on how to build them).
// The import path is a literal, so `bun build --compile` still embeds the files.
import type { WebAsset } from '../../web/dist/assets'
import type { FirstScreenDrawing } from './screen'

export type { WebAsset }

export interface Site {
  /** A path Bun.file() opens: the page every website path answers with. */
  indexHtml: string
  /** URL path -> file, for the hashed assets. */
  assets: Readonly<Record<string, WebAsset>>
  /**
   * The drawing of the tracker's first screen (firstScreen.ts), loaded when first drawn; null when
   * it does not load (the page then draws itself, as it did before there was one).
   */
  drawing: () => Promise<FirstScreenDrawing | null>
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
    ({ ASSETS, INDEX_HTML, loadFirstScreenDrawing }) => {
      let drawing: Promise<FirstScreenDrawing | null> | undefined
      return {
        indexHtml: INDEX_HTML,
        assets: ASSETS,
        drawing: () => (drawing ??= (loadFirstScreenDrawing() as Promise<FirstScreenDrawing>).catch(() => null)),
      }
    },
    () => {
      loading = undefined
      return null
    },
  )
  return loading
}
