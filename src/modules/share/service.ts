// The public share page: a read-only view of one character, found by its share token.
import { count, eq, sql } from 'drizzle-orm'
import type { DB } from '../../db/client'
import { characters, completions } from '../../db/schema'
import { NotFound } from '../../http/errors'
import { classSummary, totalLevel } from '../../rules/levels'
import { displayName } from '../characters/service'

export interface SharedCharacter {
  name: string
  server: string
  race: string
  classSummary: string
  totalLevel: number
  completionCount: number
  questCount: number
}

export function sharedCharacter(db: DB, token: string): SharedCharacter {
  const row = db.select().from(characters).where(eq(characters.shareToken, token)).get()
  if (!row) throw new NotFound('No shared character at this address.')
  const totals = db
    .select({ runs: count(), quests: sql<number>`count(distinct ${completions.name})` })
    .from(completions)
    .where(eq(completions.characterId, row.id))
    .get()
  return {
    name: displayName(row),
    server: row.server,
    race: row.race,
    classSummary: classSummary(row.classes),
    totalLevel: totalLevel(row.classes, row.epicLevels),
    completionCount: totals?.runs ?? 0,
    questCount: totals?.quests ?? 0,
  }
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  )

/** A small self-contained page (no scripts, no external assets); every value is escaped. */
export function renderSharePage(c: SharedCharacter): string {
  const facts = [
    c.classSummary && `<li>Classes: ${escapeHtml(c.classSummary)}</li>`,
    `<li>Level: ${c.totalLevel}</li>`,
    c.race && `<li>Race: ${escapeHtml(c.race)}</li>`,
    c.server && `<li>Server: ${escapeHtml(c.server)}</li>`,
    `<li>Completions logged: ${c.completionCount} (${c.questCount} distinct quests)</li>`,
  ].filter(Boolean)
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="robots" content="noindex">
  <title>${escapeHtml(c.name)} — Quest Tracker</title>
  <style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;line-height:1.5}</style>
</head>
<body>
  <h1>${escapeHtml(c.name)}</h1>
  <ul>
    ${facts.join('\n    ')}
  </ul>
  <p><small>A read-only view shared from Quest Tracker.</small></p>
</body>
</html>
`
}
