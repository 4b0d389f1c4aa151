// The first screen the server drew into the page (src/modules/web/firstScreen.ts: the tracker's,
// for its owner): shown, inert, while the live page draws itself apart from the document, and
// replaced by it once that page shows its data or what went wrong (components/PageData.tsx), in
// the same frame. A page the server drew nothing into draws itself in place, as before.

/** The attribute on the root that says the server drew a first screen into it. */
export const FIRST_SCREEN_ATTRIBUTE = 'data-first-screen'
/**
 * The attribute of the bundle's preload in such a page: the bundle is run once the drawn screen
 * is painted (boot.ts), not as the page's module script, which held that paint back.
 */
export const APP_MODULE_ATTRIBUTE = 'data-app-module'

let shown: () => void = () => {}
const pageShownOnce = new Promise<void>((resolve) => {
  shown = resolve
})

/** Called by a page once it shows what it loaded, or its failure: the live page may take over. */
export function pageShown(): void {
  shown()
}

/**
 * Where the page draws itself: `root` itself, or, when the server drew a first screen in it, a
 * new root of the same id outside the document, which replaces `root` once the page is shown.
 */
export function drawingRoot(root: HTMLElement): HTMLElement {
  if (!root.hasAttribute(FIRST_SCREEN_ATTRIBUTE)) {
    root.textContent = ''
    return root
  }
  const live = document.createElement('div')
  live.id = root.id
  void pageShownOnce.then(() => root.replaceWith(live))
  return live
}
