// How catalog sources are named: in full in the server's log and on the command line (a URL as
// given, a file as an absolute path), by a public name wherever every account can read it.
import { basename, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const isUrl = (source: string) => /^https?:\/\//i.test(source)
export const isFileUrl = (source: string) => /^file:/i.test(source)
/** ftp://, s3://...: named as given, refused as unsupported. */
export const isOtherUrl = (source: string) =>
  /^[a-z][a-z0-9+.-]*:\/\//i.test(source) && !isUrl(source) && !isFileUrl(source)

/** How a source is named in logs and in catalog_state: URLs as given, files as absolute paths. */
export function sourceLabel(source: string): string {
  if (isUrl(source) || isOtherUrl(source)) return source
  if (!isFileUrl(source)) return resolve(source)
  try {
    return fileURLToPath(source)
  } catch {
    return source // not a usable file URL: reading it fails with a clear line
  }
}

/** The sources every account may see named: by what they are, not where (no path, no credentials). */
const KNOWN_SOURCES: Record<string, string> = {
  'ddowiki.com': 'the DDO wiki',
  'www.ddowiki.com': 'the DDO wiki',
  'api.ddoaudit.com': 'DDO Audit',
}

/**
 * What /info, the health check and the website show of a source: its name when it is one of the
 * known ones, else the host of its URL or the name of its file. Every account reads /info; the
 * full value can hold an admin's paths or a URL's credentials and query token.
 */
export function publicSourceName(source: string): string {
  try {
    const url = new URL(source)
    if (url.protocol !== 'file:' && url.host) return KNOWN_SOURCES[url.host.toLowerCase()] ?? url.host
    return basename(url.pathname)
  } catch {
    return basename(source) // a plain path
  }
}
