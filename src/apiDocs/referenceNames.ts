// Names and anchors of the Markdown reference: the name of a shape an operation declares inline,
// and the anchor a heading gets on GitHub (and in most Markdown viewers), so links can point at it.

/**
 * `PutCharactersByIdProgress` for PUT /api/plugin/characters/{id}/progress: the method and the
 * path without its API prefix, in PascalCase, a path parameter as `By<Name>`.
 */
export function nameOfOperation(method: string, path: string, prefixes: readonly string[]): string {
  const prefix = [...prefixes].sort((a, b) => b.length - a.length).find((p) => path === p || path.startsWith(`${p}/`))
  const rest = prefix ? path.slice(prefix.length) : path
  const words = rest
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      const parameter = /^\{(.+)\}$/.exec(segment)
      return parameter ? `By${pascal(parameter[1] as string)}` : pascal(segment)
    })
  return pascal(method) + (words.join('') || 'Root')
}

const pascal = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]?.toUpperCase() + word.slice(1))
    .join('')

/**
 * The anchors GitHub gives headings, in document order: lower case, punctuation dropped,
 * spaces as hyphens, and `-1`, `-2`… after a repeated one (as the github-slugger package does).
 */
export function githubSlugger(): (heading: string) => string {
  const occurrences = new Map<string, number>()
  return (heading) => {
    const base = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-')
    let slug = base
    while (occurrences.has(slug)) {
      const n = (occurrences.get(base) ?? 0) + 1
      occurrences.set(base, n)
      slug = `${base}-${n}`
    }
    occurrences.set(slug, 0)
    return slug
  }
}
