// The boot script (/assets/boot-<hash>.js): a small classic script of its own that the page loads
// beside the site's bundle (scripts/buildWeb.ts), which starts the reads of the page's first
// screen (firstReads.ts) as soon as it runs, so they travel while the bundle loads and runs; the
// bundle takes them (api.ts). When the bundle ran first, it starts none: nothing is read twice.
import { type EarlyReads, firstReadsOf } from './firstReads'

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
