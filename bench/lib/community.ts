// A community-size database for bench/community.ts, written straight into SQLite (the app's
// services would spend hours on five million completions): the app's schema (its migrations),
// the bench catalog, and `accounts` accounts of 5 characters each, whose completions (one run
// each, as migration 0005 gives stored completions) follow one seeded distribution. Every 20th
// account is "active": it has a plugin token and a website session, and the load runs on those
// alone. The same seeds make an active account's data the same whatever the size of the rest,
// so a database of the active accounts alone (`activeOnly`) is the same load without the community.
import { rmSync } from 'node:fs'
import { systemClock } from '../../src/clock'
import { openDatabase } from '../../src/db/client'
import { productionHasher } from '../../src/modules/auth/password'
import { hashToken } from '../../src/modules/auth/service'
import { refreshQuestTimes } from '../../src/modules/catalog/questTimes'
import { readCatalogRows } from '../../src/modules/catalog/service'
import { createRoute } from '../../src/modules/routes/service'
import { createSession } from '../../src/modules/session/service'
import { benchDeps, syncBenchCatalog } from './catalog'
import { random } from './random'

export const CHARACTERS_PER_ACCOUNT = 5
/** One account in this many is active (the load's); the rest are the community around them. */
export const ACTIVE_EVERY = 20
export const LOGIN_PASSWORD = 'community bench password'
const SETTINGS = ['elite', 'reaper', 'hard', 'normal', 'casual', 'unknown'] as const
const TIERS = ['Heroic', 'Epic', 'Legendary', 'Unknown'] as const
const DAY_MS = 86_400_000
const START_MS = Date.UTC(2024, 0, 1)

export interface ActiveAccount {
  username: string
  token: string
  /** The website's `Cookie` header value. */
  cookie: string
  characters: { id: number; completions: number }[]
}

/** What the load needs to know of the database it runs on (bench/community.ts). */
export interface LoadData {
  active: ActiveAccount[]
  /** Accounts the load logs in to (their password is LOGIN_PASSWORD). */
  logins: string[]
  routes: number[]
  /** The catalog's quest names (searches, posted completions). */
  names: string[]
  completions: number
  buildSeconds: number
}

/**
 * Completions of one character: most have a few hundred; one in fifty is a veteran with thousands
 * (at most 10,000, the cap). Mean about 500, so 10,000 characters hold about five million.
 */
export function completionsOf(next: () => number, scale: number): number {
  const veteran = next() < 0.02
  const n = veteran ? 2000 + next() * 8000 : 50 + next() * 740
  return Math.min(10_000, Math.max(1, Math.round(n * scale)))
}

export interface BuildOptions {
  accounts: number
  /** Only the active accounts (the "empty" database beside the community one). */
  activeOnly?: boolean
  /** Multiplies every character's completions (1: about 500 each). */
  scale?: number
  log?: (line: string) => void
}

/** Builds the database at `path` (replacing it); answers what the load needs. */
export async function buildCommunity(path: string, options: BuildOptions): Promise<LoadData> {
  const started = performance.now()
  const { accounts, activeOnly = false, scale = 1, log = () => {} } = options
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true })
  // The schema and the catalog as the app makes them.
  const app = openDatabase(path)
  await syncBenchCatalog(benchDeps(app))
  const names = [...new Set(readCatalogRows(app).map((row) => row.name))]

  const triples: [string, string, string][] = []
  for (const setting of SETTINGS)
    for (const tier of TIERS) for (const name of names) triples.push([name, tier, setting])

  // On the same connection (another would wait for its locks).
  const sqlite = app.$client
  // A throwaway file while it is written: no journal, no fsync, a large cache, one writer.
  sqlite.run('PRAGMA journal_mode = DELETE')
  sqlite.run('PRAGMA journal_mode = OFF')
  sqlite.run('PRAGMA synchronous = OFF')
  sqlite.run('PRAGMA cache_size = -1000000')
  sqlite.run('PRAGMA temp_store = MEMORY')
  sqlite.run('PRAGMA locking_mode = EXCLUSIVE')
  sqlite.run('PRAGMA foreign_keys = OFF')
  // Indexes and triggers of the two big tables are made again after the rows (a sort, not five
  // million random inserts); the quest times are computed once at the end.
  const deferred = sqlite
    .query<{ type: string; name: string; sql: string }, []>(
      `select type, name, sql from sqlite_master where tbl_name in ('completions', 'runs')
       and type in ('index', 'trigger') and sql is not null`,
    )
    .all()
  for (const { type, name } of deferred) sqlite.run(`drop ${type} "${name}"`)

  const now = new Date().toISOString()
  const passwordHash = await productionHasher.hash(LOGIN_PASSWORD)
  const insertUser = sqlite.query(
    'insert into users (id, username, password_hash, created_at) values ($id, $username, $hash, $now)',
  )
  const insertToken = sqlite.query(
    `insert into api_tokens (user_id, label, token_hash, created_at, last_used_at)
     values ($userId, 'bench', $hash, $now, $now)`,
  )
  const insertCharacter = sqlite.query(
    `insert into characters (id, user_id, given_name, surname, race, server, classes, epic_levels, share_token,
       created_at, updated_at) values ($id, $userId, $given, 'Bench', 'Human', 'Thrane', $classes, $epic, $share, $now, $now)`,
  )
  const insertCompletion = sqlite.query(
    `insert into completions (id, character_id, life_index, name, difficulty, setting, completed_at, duration_seconds,
       xp_earned, reaper_xp_earned, runs, updated_at) values (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, 1, ?)`,
  )
  const insertRun = sqlite.query(
    `insert into runs (completion_id, completed_at, duration_seconds, xp_earned, reaper_xp_earned)
     values (?, ?, ?, ?, ?)`,
  )
  const active: { index: number; userId: number; token: string; characters: { id: number; completions: number }[] }[] =
    []
  const logins: string[] = []
  let completionId = 0
  let characterId = 0
  for (let index = 0; index < accounts; index++) {
    const isActive = index % ACTIVE_EVERY === 0
    // A few accounts that only log in (a login adds a token; the active ones' stay as they are).
    const logsIn = index % ACTIVE_EVERY === 1 && index < ACTIVE_EVERY * 10
    if (activeOnly && !isActive && !logsIn) continue
    if (logsIn) logins.push(`player${index}`)
    const next = random(index * 7919 + 17)
    const userId = index + 1
    sqlite.transaction(() => {
      insertUser.run({ id: userId, username: `player${index}`, hash: passwordHash, now })
      const token = `qt_communitybench${index}`
      if (isActive) insertToken.run({ userId, hash: hashToken(token), now })
      const mine: { id: number; completions: number }[] = []
      for (let c = 0; c < CHARACTERS_PER_ACCOUNT; c++) {
        // Ids follow the account's place, so an active character has the same id in both files.
        characterId = index * CHARACTERS_PER_ACCOUNT + c + 1
        const heroic = 1 + Math.floor(next() * 20)
        insertCharacter.run({
          id: characterId,
          userId,
          given: `P${index}c${c}`,
          classes: JSON.stringify([{ name: 'Fighter', levels: heroic }]),
          epic: heroic === 20 ? Math.floor(next() * 14) : 0,
          share: `community-${index}-${c}`,
          now,
        })
        const count = completionsOf(next, scale)
        // A seeded partial shuffle: `count` distinct triples of the 11,904.
        const order = Array.from({ length: triples.length }, (_, i) => i)
        for (let k = 0; k < count; k++) {
          const pick = k + Math.floor(next() * (order.length - k))
          ;[order[k], order[pick]] = [order[pick] as number, order[k] as number]
          const [name, tier, setting] = triples[order[k] as number] as [string, string, string]
          const at = new Date(START_MS + Math.floor(next() * 700 * DAY_MS)).toISOString()
          const duration = 120 + Math.floor(next() * 3000)
          const xp = Math.floor(next() * 90_000)
          const reaper = setting === 'reaper' ? Math.floor(next() * 500) : null
          // Ids in order of the account, so the active accounts' completions keep theirs too.
          completionId = (index * CHARACTERS_PER_ACCOUNT + c) * 10_000 + k + 1
          insertCompletion.run(completionId, characterId, name, tier, setting, at, duration, xp, reaper, at)
          insertRun.run(completionId, at, duration, xp, reaper)
        }
        mine.push({ id: characterId, completions: count })
      }
      if (isActive) active.push({ index, userId, token, characters: mine })
    })()
    if (index % 200 === 199) log(`accounts ${index + 1}/${accounts} (${Math.round(performance.now() - started)} ms)`)
  }
  log(`rows written (${Math.round(performance.now() - started)} ms); indexes and triggers`)
  for (const { sql } of deferred) sqlite.run(sql)
  const completions = sqlite.query<{ n: number }, []>('select count(*) as n from completions').get()?.n ?? 0
  sqlite.run('PRAGMA locking_mode = NORMAL')
  sqlite.run('PRAGMA journal_mode = WAL')
  sqlite.run('PRAGMA synchronous = NORMAL')
  sqlite.run('PRAGMA foreign_keys = ON')
  log(`indexes (${Math.round(performance.now() - started)} ms); quest times, sessions, routes`)

  // Back through the app's own code: the server's quest times, sessions and routes.
  const db = app
  db.$client.run(
    'insert or ignore into quest_times_dirty (name, difficulty, setting) select distinct name, difficulty, setting from completions',
  )
  while (refreshQuestTimes(db, systemClock, true)) {}
  const loads: ActiveAccount[] = active.map(({ index, userId, token, characters }) => ({
    username: `player${index}`,
    token,
    cookie: `qt_session=${createSession(db, systemClock, userId)}`,
    characters,
  }))
  const routes: number[] = []
  for (let r = 0; r < 20; r++) {
    const next = random(100_000 + r)
    const owner = active[r % active.length]?.userId ?? 1
    const route = createRoute(db, systemClock, owner, {
      name: `Community route ${r + 1}`,
      quests: Array.from({ length: 50 }, () => ({
        name: names[Math.floor(next() * names.length)] as string,
        difficulty: 'Heroic',
        setting: SETTINGS[Math.floor(next() * 5)],
      })),
    })
    routes.push(route.id)
  }
  db.$client.run('PRAGMA wal_checkpoint(TRUNCATE)')
  db.$client.close()
  return { active: loads, logins, routes, names, completions, buildSeconds: (performance.now() - started) / 1000 }
}
