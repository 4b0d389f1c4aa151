// Compression for the few large answers a browser fetches on every visit (the site's script and
// styles, the quest catalog): a phone on the LAN gets about a third of the bytes. Each body is
// compressed once and kept; nothing is compressed per request.

/** Whether the client accepts gzip (every current browser does). */
export const acceptsGzip = (request: Request): boolean => /\bgzip\b/.test(request.headers.get('accept-encoding') ?? '')

/** Text-like types worth compressing (images other than SVG are compressed already). */
export const compressible = (type: string): boolean => /^(text\/|application\/json|image\/svg\+xml)/.test(type)

/** A gzip-or-plain answer of `body`, telling caches the encoding varies. */
export function maybeGzipped(
  request: Request,
  plain: BodyInit,
  gzipped: () => Uint8Array<ArrayBuffer>,
  headers: Record<string, string>,
): Response {
  const vary = { ...headers, vary: 'Accept-Encoding' }
  if (!acceptsGzip(request)) return new Response(plain, { headers: vary })
  return new Response(gzipped(), { headers: { ...vary, 'content-encoding': 'gzip' } })
}
