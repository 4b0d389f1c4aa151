// Installs the service worker (sw.ts, served at /sw.js) that keeps the site readable offline.
// Browsers offer service workers only to secure origins (HTTPS, or localhost): elsewhere
// `navigator.serviceWorker` is missing and the site works as before, online only
// (docs/operations.md "HTTPS on a home network"). The write queue (outbox.ts) needs no worker and
// works on any origin.
export const SERVICE_WORKER_URL = '/sw.js'

/**
 * Registers the worker once the page has loaded, its first reads have their answers (`after`)
 * and the browser is idle: installing it fetches every file of the site, which on a first visit
 * competed with the tracker's first reads for the server and the network.
 */
export function registerServiceWorker(after: Promise<unknown>): void {
  if (!('serviceWorker' in navigator)) return
  const loaded = new Promise<void>((resolve) => {
    if (document.readyState === 'complete') resolve()
    else addEventListener('load', () => resolve(), { once: true })
  })
  void Promise.all([loaded, after]).then(() => {
    // A worker that cannot install (a private window that refuses storage) leaves the site online only.
    const register = () => void navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' }).catch(() => {})
    // Safari has no requestIdleCallback: a second's wait instead.
    if ('requestIdleCallback' in window) requestIdleCallback(register, { timeout: 3000 })
    else setTimeout(register, 1000)
  })
}
