// The navigation benchmark's data: one account, one character with 2,000 completions, and a
// 200-step route. 500 quest names with 4 completions each (distinct remake/setting pairs drawn
// from a fixed-seed generator, Unknown remakes and `unknown` settings included); the route runs
// through 200 of those names, so 800 of the completions concern it.
import { randomUUID } from 'node:crypto'
import { type Clock, isoNow } from '../src/clock'
import type { DB } from '../src/db/client'
import { characters, completions } from '../src/db/schema'
import { createUser } from '../src/modules/account/service'
import { productionHasher } from '../src/modules/auth/password'
import { findUser } from '../src/modules/auth/service'
import { createRoute } from '../src/modules/routes/service'
import { random } from './lib/random'

export const STEPS = 200
export const COMPLETIONS = 2000
const NAMES = 500
const PER_NAME = COMPLETIONS / NAMES

const REMAKES = ['Heroic', 'Epic', 'Legendary', 'Unknown'] as const
const SETTINGS = ['casual', 'normal', 'hard', 'elite', 'reaper', 'unknown'] as const
const ROUTE_REMAKES = ['Heroic', 'Epic', 'Legendary'] as const
const ROUTE_SETTINGS = ['normal', 'hard', 'elite', 'reaper'] as const

export interface Seeded {
  userId: number
  username: string
  password: string
  characterId: number
  routeId: number
}

export async function seedNavigation(db: DB, clock: Clock): Promise<Seeded> {
  const username = 'bench'
  const password = 'bench password'
  await createUser({ db, clock, passwordHasher: productionHasher }, { username, password })
  const user = findUser(db, username)
  if (!user) throw new Error('bench user missing')
  // The character is inserted directly: the character routes belong to another module.
  const now = isoNow(clock)
  const character = db
    .insert(characters)
    .values({
      userId: user.id,
      givenName: 'Bench',
      surname: 'Runner',
      shareToken: randomUUID(),
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get()
  const next = random(5)
  const rows: (typeof completions.$inferInsert)[] = []
  for (let n = 1; n <= NAMES; n++) {
    const used = new Set<string>()
    while (used.size < PER_NAME) {
      const difficulty = REMAKES[Math.floor(next() * REMAKES.length)] ?? 'Unknown'
      const setting = SETTINGS[Math.floor(next() * SETTINGS.length)] ?? 'unknown'
      const key = `${difficulty}/${setting}`
      if (used.has(key)) continue
      used.add(key)
      const completedAt = new Date(Date.UTC(2026, 0, 1) + Math.floor(next() * 300 * 86_400_000)).toISOString()
      rows.push({
        characterId: character.id,
        name: `Quest ${n}`,
        difficulty,
        setting,
        completedAt,
        durationSeconds: Math.floor(next() * 3600),
        updatedAt: completedAt,
      })
    }
  }
  db.transaction((tx) => {
    for (let i = 0; i < rows.length; i += 500)
      tx.insert(completions)
        .values(rows.slice(i, i + 500))
        .run()
  })
  const route = createRoute(db, clock, user.id, {
    name: 'Bench route',
    quests: Array.from({ length: STEPS }, (_, i) => ({
      // Every other step is a quest of the first 400 names, so some steps have nothing logged.
      name: `Quest ${i * 2 + 1}`,
      difficulty: ROUTE_REMAKES[i % ROUTE_REMAKES.length],
      setting: ROUTE_SETTINGS[i % ROUTE_SETTINGS.length],
    })),
  })
  return { userId: user.id, username, password, characterId: character.id, routeId: route.id }
}
