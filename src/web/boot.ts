// The boot script (/assets/boot-<hash>.js): a small classic script of its own that the page loads
// beside the site's bundle (scripts/buildWeb.ts), which starts the reads of the page's first
// screen (firstReads.ts) as soon as it runs, so they travel while the bundle loads and runs; the
// bundle takes them (api.ts). When the bundle ran first, it starts none: nothing is read twice.
// In a page the server drew a first screen into (src/modules/web/firstScreen.ts), it also runs
// the bundle, which is only preloaded there, once that screen is painted.
import { type EarlyReads, firstReadsOf } from './firstReads'
import { APP_MODULE_ATTRIBUTE } from './firstScreen'

if (window.qtEarlyReads === undefined) {
  const reads: EarlyReads = new Map()
  for (const path of firstReadsOf(location.pathname)) {
    const read = fetch(path, { credentials: 'same-origin' })
    // A failure is the page's to show when it takes the read, never an uncaught one.
    read.catch(() => {})
    reads.set(path, read)
  }
  window.qtEarlyReads = reads
}

/** The bundle, run as the module script it is elsewhere (same address: the preloaded copy). */
function runBundle(): void {
  const preload = document.querySelector<HTMLLinkElement>(`link[${APP_MODULE_ATTRIBUTE}]`)
  if (!preload || document.querySelector(`script[src="${preload.getAttribute('href')}"]`)) return
  const script = document.createElement('script')
  script.type = 'module'
  script.crossOrigin = 'anonymous'
  script.src = preload.href
  document.head.append(script)
}

/** After the frame that paints the page as parsed; at once in a tab in the background (no frames). */
function afterFirstPaint(): void {
  if (document.visibilityState === 'hidden') runBundle()
  else requestAnimationFrame(() => setTimeout(runBundle, 0))
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', afterFirstPaint, { once: true })
else afterFirstPaint()
