// Installs the service worker (sw.ts, served at /sw.js) that keeps the site readable offline.
// Browsers offer service workers only to secure origins (HTTPS, or localhost): elsewhere
// `navigator.serviceWorker` is missing and the site works as before, online only
// (docs/operations.md "HTTPS on a home network"). The write queue (outbox.ts) needs no worker and
// works on any origin.
export const SERVICE_WORKER_URL = '/sw.js'

export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return
  // A worker that cannot install (a private window that refuses storage) leaves the site online only.
  navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' }).catch(() => {})
}
