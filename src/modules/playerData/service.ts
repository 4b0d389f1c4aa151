// A player's data out and in: every completion of a character as CSV (the columns a spreadsheet
// kept by hand would have), the same CSV back in (through the completions import: a preview,
// then the player's confirmation), and everything of an account as one JSON file.
import { and, asc, desc, eq, gt, sql } from 'drizzle-orm'
import type { Static } from 'elysia'
import { type Clock, isoNow } from '../../clock'
import type { DB } from '../../db/client'
import { preparedOnce } from '../../db/prepared'
import { builds, characters, completions, lives, routes, runs, users } from '../../db/schema'
import { BadRequest } from '../../http/errors'
import {
  MAX_REAPER_SKULLS,
  MIN_REAPER_SKULLS,
  normalizeDifficulty,
  normalizeSetting,
  reaperSkullsOf,
} from '../../rules/quests/completion'
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
import { EXPORT_PIECE_CHARS, MAX_IMPORT_CSV_LINES } from './limits'

/** A build document as stored (the builds module validated it on the way in). */
type StoredDocument = Static<typeof BuildDocument>

/** The columns of a completions CSV, written in this order; a file may have them in any order. */
export const CSV_COLUMNS = [
  'name',
  'difficulty',
  'setting',
  'completedAt',
  'durationSeconds',
  'xpEarned',
  'reaperSkulls',
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
    rows.map((c) => [c.name, c.difficulty, c.setting, c.completedAt, c.durationSeconds, c.xpEarned, c.reaperSkulls]),
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
    const skulls = count(field(fields, 'reaperSkulls'), MAX_REAPER_SKULLS)
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
                : skulls === undefined || skulls === 0
                  ? `reaperSkulls must be a whole number from ${MIN_REAPER_SKULLS} to ${MAX_REAPER_SKULLS}`
                  : null
    if (problem) {
      invalid.push({ source, error: `${problem[0]?.toUpperCase()}${problem.slice(1)}.` })
      continue
    }
    // Empty: the catalog decides; any word (Unknown too) is that tier.
    const tier = field(fields, 'difficulty').trim()
    const settingWord = field(fields, 'setting').trim() || undefined
    const setting = normalizeSetting(settingWord)
    items.push({
      source,
      name,
      difficulty: tier === '' ? null : normalizeDifficulty(tier),
      setting,
      completedAt,
      durationSeconds,
      xpEarned,
      // A reaper line's count, from its column or its setting (`R5`); none on any other setting.
      reaperSkulls: setting === 'reaper' ? (skulls ?? reaperSkullsOf(settingWord)) : null,
    })
  }
  return { items, invalid }
}

/** A stored run as the export writes it. */
type ExportedRun = Pick<
  typeof runs.$inferSelect,
  'completedAt' | 'durationSeconds' | 'xpEarned' | 'reaperXpEarned' | 'reaperSkulls'
>

/** Completions read at once (a page of rows: their runs are read one completion at a time). */
const EXPORT_COMPLETIONS_PAGE = 500

const exportStatements = preparedOnce((db: DB) => {
  const p = (name: string) => sql.placeholder(name)
  return {
    character: db
      .select()
      .from(characters)
      .where(and(eq(characters.userId, p('userId')), gt(characters.id, p('after'))))
      .orderBy(asc(characters.id))
      .limit(1)
      .prepare(),
    // The character's completions by (life, time, id), a page after the last one written.
    completions: db
      .select()
      .from(completions)
      .where(
        and(
          eq(completions.characterId, p('characterId')),
          sql`(${completions.lifeIndex}, ${completions.completedAt}, ${completions.id}) > (${p('life')}, ${p('at')}, ${p('id')})`,
        ),
      )
      .orderBy(asc(completions.lifeIndex), asc(completions.completedAt), asc(completions.id))
      .limit(EXPORT_COMPLETIONS_PAGE)
      .prepare(),
    runs: db
      .select({
        completedAt: runs.completedAt,
        durationSeconds: runs.durationSeconds,
        xpEarned: runs.xpEarned,
        reaperXpEarned: runs.reaperXpEarned,
        reaperSkulls: runs.reaperSkulls,
      })
      .from(runs)
      .where(eq(runs.completionId, p('completionId')))
      .orderBy(asc(runs.completedAt), asc(runs.id))
      .prepare(),
  }
})

/** A JSON object's text without its closing brace, for more keys to follow. */
const opened = (value: object): string => JSON.stringify(value).slice(0, -1)

/**
 * Everything of the account as one JSON document, in pieces of about EXPORT_PIECE_CHARS: each
 * character (profile, tracker settings, completions with their runs, live snapshot, planned
 * build, lives) and the routes it made. No password, token, session or share link: the file is
 * the player's to keep, and may be passed around. The first piece (the account) is read when the
 * generator first runs (a missing account throws then); each later one when it is asked for, so
 * the caller may let other work in between and never holds more than a piece. The pieces are
 * read one after another, not in one transaction: a change made while an export is sent may be
 * in it or not, each completion whole with its runs.
 */
export function* exportAccountPieces(db: DB, clock: Clock, userId: number): Generator<string, void, undefined> {
  const user = db.select().from(users).where(eq(users.id, userId)).get()
  if (!user) throw new BadRequest('No such account.')
  const s = exportStatements(db)
  const head = {
    format: 'quest-tracker-export' as const,
    version: 1 as const,
    exportedAt: isoNow(clock),
    account: { username: user.username, email: user.email, displayName: userDisplayName(user) },
  }
  let out = `${opened(head)},"characters":[`
  // Hands on what is gathered once it is a piece's worth.
  const full = () => out.length >= EXPORT_PIECE_CHARS
  let after = 0
  for (let first = true; ; first = false) {
    const row = s.character.get({ userId, after })
    if (!row) break
    after = row.id
    const { shareToken: _token, shareUrl: _url, shared: _shared, questsDone: _done, ...profile } = toCharacterJson(row)
    const tracker = {
      levelBand: row.levelBand,
      characterLevelOverride: row.characterLevelOverride,
      excludedPatrons: row.excludedPatrons,
      versionFilter: row.versionFilter,
      xpBoosts: row.xpBoosts,
      optionalPursuit: row.optionalPursuit,
      packState: row.packState,
      questNotes: row.questNotes,
    }
    out += `${first ? '' : ','}${opened({ ...profile, tracker })},"completions":[`
    let last = { life: Number.MIN_SAFE_INTEGER, at: '', id: 0 }
    let firstCompletion = true
    for (;;) {
      const page = s.completions.all({ characterId: row.id, ...last })
      for (const c of page) {
        const runList: ExportedRun[] = s.runs.all({ completionId: c.id })
        const completion = {
          name: c.name,
          difficulty: normalizeDifficulty(c.difficulty),
          setting: normalizeSetting(c.setting),
          completedAt: c.completedAt,
          durationSeconds: c.durationSeconds,
          xpEarned: c.xpEarned,
          reaperXpEarned: c.reaperXpEarned,
          reaperSkulls: c.reaperSkulls,
          lifeIndex: c.lifeIndex,
          runs: c.runs,
          runList,
        }
        out += `${firstCompletion ? '' : ','}${JSON.stringify(completion)}`
        firstCompletion = false
        if (full()) {
          yield out
          out = ''
        }
      }
      const end = page.at(-1)
      if (!end || page.length < EXPORT_COMPLETIONS_PAGE) break
      last = { life: end.lifeIndex, at: end.completedAt, id: end.id }
    }
    const stored = db.select().from(builds).where(eq(builds.characterId, row.id)).all()
    const buildOf = (role: 'live' | 'planned') =>
      (stored.find((b) => b.role === role)?.document as StoredDocument | undefined) ?? null
    out += `],"live":${JSON.stringify(buildOf('live'))}`
    if (full()) {
      yield out
      out = ''
    }
    out += `,"planned":${JSON.stringify(buildOf('planned'))},"lives":[`
    // A character's lives: at most 200 of at most 24 KiB (builds/limits.ts), read whole.
    const history = db.select().from(lives).where(eq(lives.characterId, row.id)).orderBy(asc(lives.lifeIndex)).all()
    history.forEach(({ id: _id, characterId: _character, ...life }, i) => {
      out += `${i === 0 ? '' : ','}${JSON.stringify(life)}`
    })
    out += ']}'
    if (full()) {
      yield out
      out = ''
    }
  }
  out += '],"routes":['
  const owned = db
    .select({ id: routes.id })
    .from(routes)
    .where(eq(routes.ownerId, userId))
    .orderBy(asc(routes.id))
    .all()
  for (const [i, { id }] of owned.entries()) {
    out += `${i === 0 ? '' : ','}${JSON.stringify(exportRoute(db, id))}`
    if (full()) {
      yield out
      out = ''
    }
  }
  yield `${out}]}`
}
