// `quest-tracker data export` and `completions export|import`: a player's data out and in, for
// the operator (the same as the website's account page: docs/website.md "Your data").
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { eq } from 'drizzle-orm'
import { systemClock } from '../clock'
import type { DB } from '../db/client'
import { characters } from '../db/schema'
import { NotFound } from '../http/errors'
import { quoted } from '../logger'
import { findUser } from '../modules/auth/service'
import { applyImport, previewImport } from '../modules/completions/import'
import type { QuestsPreview } from '../modules/completions/importModel'
import { ChangeFeed } from '../modules/events/feed'
import { CsvFormatError } from '../modules/playerData/csv'
import { EXPORT_PIECE_CHARS } from '../modules/playerData/limits'
import {
  completionsCsv,
  completionsFromCsv,
  exportAccountPieces,
  type InvalidLine,
} from '../modules/playerData/service'
import { databaseFlag, none, one, parse, switchFlag, UsageError, valueFlag } from './args'
import { type CliIO, type Command, printHelp, withDatabase } from './io'

const DATA_HELP = `Usage: quest-tracker data export --owner NAME [--database PATH]

Prints everything of account NAME (a username or e-mail) as one JSON document: each character
with its profile, tracker settings, completions, live snapshot, planned build and lives, and
the routes it made. No password, token, session or share link. Redirect it to a file. It is
written as it is read, in pieces of about ${EXPORT_PIECE_CHARS / 1024} KiB (compact JSON, a line break between pieces).`

const COMPLETIONS_HELP = `Usage:
  quest-tracker completions export ID            print character ID's completions as CSV
  quest-tracker completions import FILE --character ID [--confirm] [--keep-unmatched]
                                                 import a CSV of completions into character ID

The CSV's columns: name,difficulty,setting,completedAt,durationSeconds,xpEarned,reaperXpEarned,runs
(a header line first; only name is required; runs is how many times it was logged). Import prints what it would do (added, already stored,
ambiguous, not in the catalog, unreadable lines) and writes only with --confirm; a completion
already stored is left as it is, so importing twice adds nothing twice. --keep-unmatched stores
names the catalog does not have as written. Option: --database PATH (overrides DATABASE_PATH).`

export const data: Command = { help: DATA_HELP, run: runData }
export const completionsCommand: Command = { help: COMPLETIONS_HELP, run: runCompletions }

async function runData(io: CliIO, args: string[]): Promise<number> {
  const [sub, ...rest] = args
  if (!sub || sub === '--help' || sub === '-h') return printHelp(io, DATA_HELP)
  if (sub !== 'export') throw new UsageError(`data: unknown subcommand "${sub}" (export)`)
  const { values } = parse('data export', rest, { owner: valueFlag, ...databaseFlag }, none())
  const owner = values.owner
  if (!owner) throw new UsageError('data export: give --owner NAME (the account to export)')
  await withDatabase(io, values, (db) => {
    const user = findUser(db, owner)
    if (!user) throw new NotFound(`No account "${owner}".`)
    // Written as it is read, a piece at a time (a line each), never the whole in memory.
    for (const piece of exportAccountPieces(db, systemClock, user.id)) io.out(piece)
  })
  return 0
}

/** The account that owns character `id`: the operator acts for it. */
function ownerOf(db: DB, id: number): number {
  const row = db.select({ userId: characters.userId }).from(characters).where(eq(characters.id, id)).get()
  if (!row) throw new NotFound(`No character ${id}.`)
  return row.userId
}

const characterId = (command: string, text: string | undefined): number => {
  const id = Number(text)
  if (!Number.isInteger(id) || id < 1) throw new UsageError(`${command}: the character id is a whole number`)
  return id
}

/** The preview as lines: a summary, then each line of the file that is not simply added. */
function report(io: CliIO, result: QuestsPreview & { invalid: InvalidLine[] }, confirmed: boolean): void {
  io.out(
    `${confirmed ? 'added' : 'would add'} ${result.add.length} of ${result.total}; already stored ${result.stored.length}; ambiguous ${result.ambiguous.length}; not in the catalog ${result.unmatched.length}; unreadable ${result.invalid.length}`,
  )
  for (const a of result.ambiguous) {
    io.out(
      `${a.source}: ${quoted(a.name)} could be ${a.candidates.map((c) => `${c.name} (${c.difficulty})`).join(', ')}`,
    )
  }
  for (const u of result.unmatched) io.out(`${u.source}: ${quoted(u.name)} is not in the catalog`)
  for (const i of result.invalid) io.out(`${i.source}: ${i.error}`)
}

async function runCompletions(io: CliIO, args: string[]): Promise<number> {
  const [sub, ...rest] = args
  if (!sub || sub === '--help' || sub === '-h') return printHelp(io, COMPLETIONS_HELP)
  switch (sub) {
    case 'export': {
      const { values, positionals } = parse('completions export', rest, databaseFlag, one('give the character id'))
      const id = characterId('completions export', positionals[0])
      const { text } = await withDatabase(io, values, (db) => completionsCsv(db, ownerOf(db, id), id))
      io.out(text.replace(/\r\n$/, '').replaceAll('\r\n', '\n'))
      return 0
    }
    case 'import': {
      const { values, positionals } = parse(
        'completions import',
        rest,
        { character: valueFlag, confirm: switchFlag, 'keep-unmatched': switchFlag, ...databaseFlag },
        one('give the path of the CSV file'),
      )
      if (!values.character) throw new UsageError('completions import: give --character ID')
      const id = characterId('completions import', values.character)
      let parsed: ReturnType<typeof completionsFromCsv>
      try {
        parsed = completionsFromCsv(readFileSync(resolve(positionals[0] as string), 'utf8'))
      } catch (error) {
        if (error instanceof CsvFormatError) throw new UsageError(`completions import: ${error.message}`)
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          throw new UsageError(`completions import: no file ${positionals[0]}`)
        }
        throw error
      }
      const options = { keepUnmatched: values['keep-unmatched'] === true }
      const confirmed = values.confirm === true
      const result = await withDatabase(io, values, (db) => {
        const writer = { db, clock: systemClock, changes: new ChangeFeed() }
        const owner = ownerOf(db, id)
        return confirmed
          ? applyImport(writer, owner, id, parsed.items, options)
          : previewImport(writer, owner, id, parsed.items, options)
      })
      report(io, { ...result, invalid: parsed.invalid }, confirmed)
      if (!confirmed && result.add.length > 0) io.out('nothing written: run again with --confirm to import')
      return 0
    }
    default:
      throw new UsageError(`completions: unknown subcommand "${sub}" (export, import)`)
  }
}
