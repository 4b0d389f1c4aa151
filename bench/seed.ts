// Prepares a benchmark database through the app's own services: the real schema (migrations),
// the quest catalog (the shared 718-row fixture when present, else the small test fixture),
// one account with a bearer token and a website session, its characters with completions
// named after catalog quests, and a route. Prints one JSON line (Seeded, below).
// Usage: bun bench/seed.ts <database path> [--completions N] [--big N] [--characters N]
//          [--others N] [--steps N] [--accounts N]
//   --completions  completions of the first character (default 200)
//   --big          completions of a second character (default 2000; 0: none)
//   --characters   characters on the account in all (default 10)
//   --others       completions of each further character (default 100)
//   --steps        steps of the route (default 50)
//   --accounts     accounts in all, each a copy of the first (default 1): to fill a large file
import { rmSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { systemClock } from '../src/clock'
import { type DB, openDatabase } from '../src/db/client'
import { createUser } from '../src/modules/account/service'
import { createLoginGuard } from '../src/modules/auth/loginGuard'
import { login } from '../src/modules/auth/service'
import { readCatalogRows } from '../src/modules/catalog/service'
import { createCharacter } from '../src/modules/characters/service'
import { createRoute } from '../src/modules/routes/service'
import { createSession } from '../src/modules/session/service'
import { benchDeps, syncBenchCatalog } from './lib/catalog'
import { random } from './lib/random'

export interface Seeded {
  token: string
  /** The website's `Cookie` header value. */
  cookie: string
  /** The character with `--completions` completions, and the one with `--big` (0 when none). */
  small: number
  big: number
  routeId: number
  characters: number
  /** The distinct names of the small character's completions, for bench/upsert.lua. */
  names: string[]
}

// Unknown remakes and settings last: with 496 distinct names, they make 10,000 triples possible.
const SETTINGS = ['elite', 'reaper', 'hard', 'normal', 'casual', 'unknown'] as const
const TIERS = ['Heroic', 'Epic', 'Legendary', 'Unknown'] as const

/**
 * Inserts `count` completions of distinct (name, remake, setting) triples over the catalog's
 * names, in one prepared statement (the app's upsert would spend minutes on a large file).
 */
function addCompletions(db: DB, characterId: number, names: string[], count: number, seed: number): string[] {
  const next = random(seed)
  const triples: [string, string, string][] = []
  for (const setting of SETTINGS)
    for (const tier of TIERS) for (const name of names) triples.push([name, tier, setting])
  if (count > triples.length) throw new Error(`at most ${triples.length} completions per character`)
  // Names first, so that a small count still spreads over many quests.
  const chosen = triples.slice(0, count)
  const insert = db.$client.query(
    `insert into completions (character_id, name, difficulty, setting, completed_at, duration_seconds,
       xp_earned, reaper_xp_earned, runs, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  db.$client.transaction(() => {
    for (const [name, tier, setting] of chosen) {
      const at = new Date(Date.UTC(2026, 0, 1) + Math.floor(next() * 300 * 86_400_000)).toISOString()
      const reaper = setting === 'reaper' ? Math.floor(next() * 500) : null
      insert.run(
        characterId,
        name,
        tier,
        setting,
        at,
        Math.floor(next() * 3600),
        Math.floor(next() * 90_000),
        reaper,
        1,
        at,
      )
    }
  })()
  return [...new Set(chosen.map(([name]) => name))]
}

export async function seed(
  path: string,
  { completions = 200, big = 2000, characters = 10, others = 100, steps = 50, accounts = 1 } = {},
): Promise<Seeded> {
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true })
  const db = openDatabase(path)
  const deps = benchDeps(db)
  await syncBenchCatalog(deps)
  const questNames = [...new Set(readCatalogRows(db).map((row) => row.name))]
  const password = 'bench password 123'
  const guard = createLoginGuard(deps)
  let first: Seeded | undefined
  for (let account = 1; account <= accounts; account++) {
    const username = account === 1 ? 'bench' : `bench${account}`
    const user = await createUser(deps, { username, password })
    const { token } = await login(deps, guard, username, password, 'bench', undefined)
    const cookie = `qt_session=${createSession(db, systemClock, user.id)}`
    const ids: number[] = []
    for (let i = 0; i < characters; i++) {
      const character = createCharacter(db, systemClock, user.id, {
        givenName: `Bench${i + 1}`,
        surname: 'Mark',
        race: 'Human',
        server: 'Thrane',
        classes: [
          { name: 'Fighter', levels: 12 },
          { name: 'Rogue', levels: 6 },
          { name: 'Wizard', levels: 2 },
        ],
        epicLevels: 10,
      })
      ids.push(character.id)
    }
    const [small = 0, second = 0] = ids
    const names = addCompletions(db, small, questNames, completions, account * 1000 + 1)
    if (big > 0 && second) addCompletions(db, second, questNames, big, account * 1000 + 2)
    ids.slice(big > 0 ? 2 : 1).forEach((id, i) => {
      addCompletions(db, id, questNames, others, account * 1000 + 3 + i)
    })
    // The route runs through quests the small character has (every other step) and has not done.
    const route = createRoute(db, systemClock, user.id, {
      name: `Bench route ${account}`,
      quests: Array.from({ length: steps }, (_, i) => ({
        name: i % 2 === 0 ? (names[i % names.length] as string) : (questNames[questNames.length - 1 - i] as string),
        difficulty: 'Heroic',
        setting: SETTINGS[i % 2 === 0 ? 0 : 1],
      })),
    })
    first ??= { token, cookie, small, big: big > 0 ? second : 0, routeId: route.id, characters, names }
  }
  db.$client.run('PRAGMA wal_checkpoint(TRUNCATE)')
  db.$client.close()
  return first as Seeded
}

if (import.meta.main) {
  const { values, positionals } = parseArgs({
    args: Bun.argv.slice(2),
    allowPositionals: true,
    options: Object.fromEntries(
      ['completions', 'big', 'characters', 'others', 'steps', 'accounts'].map((name) => [name, { type: 'string' }]),
    ) as Record<string, { type: 'string' }>,
  })
  const path = positionals[0]
  if (!path) throw new Error('usage: bun bench/seed.ts <database path> [--completions N] ...')
  const numbers = Object.fromEntries(Object.entries(values).map(([key, value]) => [key, Number(value)]))
  const seeded = await seed(path, numbers)
  console.log(JSON.stringify({ ...seeded, names: undefined }))
}
