// A player's data out and in: every completion of a character as CSV (the columns a spreadsheet
// kept by hand would have), the same CSV back in (through the completions import: a preview,
// then the player's confirmation), and everything of an account as one JSON file.
import { and, asc, desc, eq } from 'drizzle-orm'
import type { Static } from 'elysia'
import { type Clock, isoNow } from '../../clock'
import type { DB } from '../../db/client'
import { builds, characters, completions, lives, routes, runs, users } from '../../db/schema'
import { BadRequest } from '../../http/errors'
import { normalizeDifficulty, normalizeSetting } from '../../rules/quests/completion'
import { parseTimestamp } from '../../rules/timestamp'
import { userDisplayName } from '../auth/service'
import type { BuildDocument } from '../builds/model'
import { ownedCharacter } from '../characters/access'
import { characterName, toCharacterJson } from '../characters/service'
import type { ForeignCompletion } from '../completions/import'
import { MAX_DURATION_SECONDS, MAX_XP } from '../completions/model'
import { currentQuestLife } from '../completions/service'
import { exportRoute } from '../routes/transfer'
import { parseCsv, writeCsv } from './csv'
import { MAX_IMPORT_CSV_LINES, MAX_IMPORT_CSV_RUNS } from './limits'

/** A build document as stored (the builds module validated it on the way in). */
type StoredDocument = Static<typeof BuildDocument>

/**
 * The columns of a completions CSV, written in this order; a file may have them in any order.
 * The figures are the latest run's; `runs` is how many times it was logged (the import keeps it).
 */
export const CSV_COLUMNS = [
  'name',
  'difficulty',
  'setting',
  'completedAt',
  'durationSeconds',
  'xpEarned',
  'reaperXpEarned',
  'runs',
] as const

/** A file name browsers and Windows accept: letters, digits, space, dot, dash, underscore. */
export const safeFileName = (name: string, fallback: string): string =>
  name.replace(/[^\w .-]+/g, '').trim() || fallback

/**
 * A character's completions of its current life as CSV, most recent first, and the file name to
 * save it as (the import reads it back into the current life).
 */
export function completionsCsv(db: DB, userId: number, characterId: number): { fileName: string; text: string } {
  const character = ownedCharacter(db, userId, characterId)
  const rows = db
    .select()
    .from(completions)
    .where(and(eq(completions.characterId, characterId), eq(completions.lifeIndex, currentQuestLife(db, characterId))))
    .orderBy(desc(completions.completedAt), desc(completions.id))
    .all()
  const text = writeCsv(
    CSV_COLUMNS,
    rows.map((c) => [
      c.name,
      c.difficulty,
      c.setting,
      c.completedAt,
      c.durationSeconds,
      c.xpEarned,
      c.reaperXpEarned,
      c.runs,
    ]),
  )
  return { fileName: `${safeFileName(characterName(character), 'character')} completions.csv`, text }
}

/** A line of a CSV the import could not read, and why. */
export interface InvalidLine {
  source: string
  error: string
}

/** A whole number from 0 to `max` in a field, or null when it is empty; undefined when it is not one. */
function count(field: string, max: number): number | null | undefined {
  const text = field.trim()
  if (text === '') return null
  if (!/^\d+$/.test(text)) return undefined
  const value = Number(text)
  return value <= max ? value : undefined
}

/**
 * The completions of a CSV (CsvFormatError when it is not CSV; 400 without a `name` column or
 * with more lines than a character may have completions), and the lines that could not be read.
 */
export function completionsFromCsv(text: string): { items: ForeignCompletion[]; invalid: InvalidLine[] } {
  const [header, ...records] = parseCsv(text)
  const column = new Map((header?.fields ?? []).map((name, i) => [name.trim().toLowerCase(), i]))
  const nameAt = column.get('name')
  if (nameAt === undefined) {
    throw new BadRequest(
      `The CSV file's first line must name its columns, with a "name" column (${CSV_COLUMNS.join(',')}).`,
    )
  }
  if (records.length > MAX_IMPORT_CSV_LINES) {
    throw new BadRequest(
      `The CSV file has ${records.length} completions; one import may have at most ${MAX_IMPORT_CSV_LINES}.`,
    )
  }
  const field = (fields: string[], name: string) => {
    const at = column.get(name.toLowerCase())
    return at === undefined ? '' : (fields[at] ?? '')
  }
  const items: ForeignCompletion[] = []
  const invalid: InvalidLine[] = []
  for (const { line, fields } of records) {
    const source = `line ${line}`
    const name = (fields[nameAt] ?? '').trim()
    const when = field(fields, 'completedAt').trim()
    const completedAt = when === '' ? null : parseTimestamp(when)
    const durationSeconds = count(field(fields, 'durationSeconds'), MAX_DURATION_SECONDS)
    const xpEarned = count(field(fields, 'xpEarned'), MAX_XP)
    const reaperXpEarned = count(field(fields, 'reaperXpEarned'), MAX_XP)
    const runs = count(field(fields, 'runs'), MAX_IMPORT_CSV_RUNS)
    const problem =
      name === ''
        ? 'the name is empty'
        : name.length > 200
          ? 'the name is longer than 200 characters'
          : completedAt === null && when !== ''
            ? `completedAt "${when.slice(0, 40)}" is not an ISO 8601 timestamp`
            : durationSeconds === undefined
              ? `durationSeconds must be a whole number of seconds from 0 to ${MAX_DURATION_SECONDS}`
              : xpEarned === undefined
                ? `xpEarned must be a whole number from 0 to ${MAX_XP}`
                : reaperXpEarned === undefined
                  ? `reaperXpEarned must be a whole number from 0 to ${MAX_XP}`
                  : runs === undefined || runs === 0
                    ? `runs must be a whole number from 1 to ${MAX_IMPORT_CSV_RUNS}`
                    : null
    if (problem) {
      invalid.push({ source, error: `${problem[0]?.toUpperCase()}${problem.slice(1)}.` })
      continue
    }
    // Empty: the catalog decides; any word (Unknown too) is that tier.
    const tier = field(fields, 'difficulty').trim()
    items.push({
      source,
      name,
      difficulty: tier === '' ? null : normalizeDifficulty(tier),
      setting: normalizeSetting(field(fields, 'setting').trim() || undefined),
      completedAt,
      durationSeconds,
      xpEarned,
      reaperXpEarned,
      runs,
    })
  }
  return { items, invalid }
}

/**
 * Everything of the account as one JSON document: each character (profile, tracker settings,
 * completions, live snapshot, planned build, lives) and the routes it made. No password, token,
 * session or share link: the file is the player's to keep, and may be passed around.
 */
export function exportAccount(db: DB, clock: Clock, userId: number) {
  const user = db.select().from(users).where(eq(users.id, userId)).get()
  if (!user) throw new BadRequest('No such account.')
  const rows = db.select().from(characters).where(eq(characters.userId, userId)).orderBy(asc(characters.id)).all()
  return {
    format: 'quest-tracker-export' as const,
    version: 1 as const,
    exportedAt: isoNow(clock),
    account: { username: user.username, email: user.email, displayName: userDisplayName(user) },
    characters: rows.map((row) => {
      const {
        shareToken: _token,
        shareUrl: _url,
        shared: _shared,
        questsDone: _done,
        ...profile
      } = toCharacterJson(row)
      const stored = db.select().from(builds).where(eq(builds.characterId, row.id)).all()
      const buildOf = (role: 'live' | 'planned') =>
        (stored.find((b) => b.role === role)?.document as StoredDocument | undefined) ?? null
      // Every run of the character in one read, handed to its completion.
      const runsByCompletion = new Map<number, Omit<typeof runs.$inferSelect, 'id' | 'completionId'>[]>()
      for (const { completionId, ...run } of db
        .select({
          completionId: runs.completionId,
          completedAt: runs.completedAt,
          durationSeconds: runs.durationSeconds,
          xpEarned: runs.xpEarned,
          reaperXpEarned: runs.reaperXpEarned,
        })
        .from(runs)
        .innerJoin(completions, eq(completions.id, runs.completionId))
        .where(eq(completions.characterId, row.id))
        .orderBy(asc(runs.completedAt), asc(runs.id))
        .all()) {
        const list = runsByCompletion.get(completionId)
        if (list) list.push(run)
        else runsByCompletion.set(completionId, [run])
      }
      const runsOf = (completionId: number) => runsByCompletion.get(completionId) ?? []
      return {
        ...profile,
        tracker: {
          levelBand: row.levelBand,
          characterLevelOverride: row.characterLevelOverride,
          excludedPatrons: row.excludedPatrons,
          versionFilter: row.versionFilter,
          xpBoosts: row.xpBoosts,
          optionalPursuit: row.optionalPursuit,
          packState: row.packState,
          questNotes: row.questNotes,
        },
        completions: db
          .select()
          .from(completions)
          .where(eq(completions.characterId, row.id))
          .orderBy(asc(completions.lifeIndex), asc(completions.completedAt), asc(completions.id))
          .all()
          .map((c) => ({
            name: c.name,
            difficulty: normalizeDifficulty(c.difficulty),
            setting: normalizeSetting(c.setting),
            completedAt: c.completedAt,
            durationSeconds: c.durationSeconds,
            xpEarned: c.xpEarned,
            reaperXpEarned: c.reaperXpEarned,
            lifeIndex: c.lifeIndex,
            runs: c.runs,
            runList: runsOf(c.id),
          })),
        live: buildOf('live'),
        planned: buildOf('planned'),
        lives: db
          .select()
          .from(lives)
          .where(eq(lives.characterId, row.id))
          .orderBy(asc(lives.lifeIndex))
          .all()
          .map(({ id: _id, characterId: _character, ...life }) => life),
      }
    }),
    routes: db
      .select({ id: routes.id })
      .from(routes)
      .where(eq(routes.ownerId, userId))
      .orderBy(asc(routes.id))
      .all()
      .map(({ id }) => exportRoute(db, id)),
  }
}
