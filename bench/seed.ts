// Prepares a benchmark database: the real schema (migrations), the quest catalog (the shared
// 718-row fixture when present, else the small test fixture), one account with a token, one
// character with 200 completions. Prints `<token> <characterId>` for run.sh.
// Usage: bun bench/seed.ts <database path>
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { systemClock } from '../src/clock'
import { loadConfig } from '../src/config'
import { openDatabase } from '../src/db/client'
import { quests } from '../src/db/schema'
import { createLoginGuard } from '../src/modules/auth/login-guard'
import { productionHasher } from '../src/modules/auth/password'
import { createUser, login } from '../src/modules/auth/service'
import { createCharacter } from '../src/modules/characters/service'
import { normalizePosted, upsertCompletion } from '../src/modules/completions/service'

export const COMPLETIONS = 200

const path = process.argv[2]
if (!path) throw new Error('usage: bun bench/seed.ts <database path>')
for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true })

const shared = join(import.meta.dir, '..', '..', 'shared', 'fixtures', 'catalog', 'quests-718.json')
const small = join(import.meta.dir, '..', 'test', 'fixtures', 'quests-small.json')
const catalog = JSON.parse(readFileSync(existsSync(shared) ? shared : small, 'utf8')) as {
  name: string
  difficulty: string
  level: number
}[]

const db = openDatabase(path)
db.transaction((tx) => {
  for (const q of catalog) tx.insert(quests).values({ name: q.name, difficulty: q.difficulty, level: q.level }).run()
})
const password = 'bench password 123'
const deps = { db, config: loadConfig({}), clock: systemClock, passwordHasher: productionHasher }
const user = await createUser(deps, { username: 'bench', password })
const { token } = await login(deps, createLoginGuard(deps), 'bench', password, 'bench', undefined)
const character = createCharacter(db, systemClock, user.id, {
  givenName: 'Bench',
  surname: 'Mark',
  classes: [{ name: 'Fighter', levels: 20 }],
  epicLevels: 10,
})
const now = new Date().toISOString()
db.transaction(() => {
  for (let i = 0; i < COMPLETIONS; i++) {
    const name = catalog[i % catalog.length]?.name ?? `Quest ${i}`
    const setting = ['elite', 'reaper', 'hard'][Math.floor(i / catalog.length) % 3]
    upsertCompletion(db, character.id, normalizePosted({ name, difficulty: 'Heroic', setting, xpEarned: i }, now), now)
  }
})
db.$client.close()
console.log(`${token} ${character.id}`)
