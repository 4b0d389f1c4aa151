// `quest-tracker invite create|list|revoke`: the operator's invite links, with which a newcomer
// makes their own account on the website (when SIGNUP_INVITES is on).
import { systemClock } from '../clock'
import { quoted } from '../logger'
import { listPendingInvites, revokeInvite } from '../modules/invites/admin'
import { MAX_INVITE_DAYS } from '../modules/invites/limits'
import { createInvite } from '../modules/invites/service'
import { databaseFlag, none, one, parse, UsageError, valueFlag } from './args'
import { type CliIO, type Command, printHelp, withDatabase } from './io'

const HELP = `Usage:
  quest-tracker invite create [--days N] [--url BASE]   a new invite link to make one account
  quest-tracker invite list                             pending invites (the operator's and the groups')
  quest-tracker invite revoke ID                        end invite ID (from the list): its link stops working

An invite works once, for 7 days unless --days says otherwise (1 to ${MAX_INVITE_DAYS}). It prints the
link's path, /join/CODE, or the whole link with --url (the address the players open the site at,
such as http://192.168.1.10:8080). The code is shown this once: only its SHA-256 is stored.
Nobody can sign up with it unless the server runs with SIGNUP_INVITES=on.
Option: --database PATH (overrides DATABASE_PATH).`

export const invite: Command = { help: HELP, run }

/**
 * The site's address as --url gives it, without a trailing slash ('' without --url: the link is
 * then the path alone, for the operator to put after the address the players use).
 */
export function siteBase(url: string | undefined): string {
  if (url === undefined) return ''
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new UsageError("invite create: --url must be the site's address, such as http://192.168.1.10:8080")
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UsageError('invite create: --url must start with http:// or https://')
  }
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}`
}

function daysOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined
  const days = Number(text)
  if (!/^\d+$/.test(text) || days < 1 || days > MAX_INVITE_DAYS) {
    throw new UsageError(`invite create: --days is a whole number from 1 to ${MAX_INVITE_DAYS}`)
  }
  return days
}

async function run(io: CliIO, args: string[]): Promise<number> {
  const [sub, ...rest] = args
  if (!sub || sub === '--help' || sub === '-h') return printHelp(io, HELP)
  switch (sub) {
    case 'create': {
      const { values } = parse(
        'invite create',
        rest,
        { days: valueFlag, url: valueFlag, ...databaseFlag },
        none('takes --days N and --url BASE, no other arguments'),
      )
      const days = daysOf(values.days)
      const base = siteBase(values.url)
      const { made, signups } = await withDatabase(io, values, (db, config) => ({
        made: createInvite(db, systemClock, { groupId: null, createdBy: null, days }),
        signups: config.signupInvites,
      }))
      if (!signups) {
        io.err(
          'quest-tracker: SIGNUP_INVITES is off: nobody can sign up with this link until the server runs with it on',
        )
      }
      io.out(`invite ${made.id}: makes one account, works once until ${made.expiresAt}`)
      io.out(`${base}/join/${made.code}`)
      return 0
    }
    case 'list': {
      const { values } = parse('invite list', rest, databaseFlag, none('takes no arguments'))
      const rows = await withDatabase(io, values, (db) => listPendingInvites(db, systemClock))
      if (rows.length === 0) io.out('no pending invites; make one with: quest-tracker invite create')
      for (const row of rows) {
        const what = row.group === null ? 'account' : `group ${quoted(row.group)}`
        io.out(
          `${row.id}\t${what}\tby ${row.createdBy === null ? 'the operator' : quoted(row.createdBy)}\tcreated ${row.createdAt}\texpires ${row.expiresAt}`,
        )
      }
      return 0
    }
    case 'revoke': {
      const { values, positionals } = parse(
        'invite revoke',
        rest,
        databaseFlag,
        one('give the id of the invite (see invite list)'),
      )
      const id = Number(positionals[0])
      if (!Number.isInteger(id) || id < 1) throw new UsageError('invite revoke: the id is a whole number')
      await withDatabase(io, values, (db) => revokeInvite(db, systemClock, id))
      io.out(`revoked invite ${id}`)
      return 0
    }
    default:
      throw new UsageError(`invite: unknown subcommand "${sub}" (create, list, revoke)`)
  }
}
