// What the admin commands' tests share: each test runs `quest-tracker …` (src/cli) in-process
// against a database file of its own in a fresh folder (none there until a command or
// `createDb()` makes it), with stdout and stderr kept as lines and the passwords it asks for
// queued. Call `useCli()` at the top of a test file; the bindings below are that test's.
import { beforeEach } from 'bun:test'
import { join } from 'node:path'
import { type CliIO, run } from '../../src/cli'
import { loadConfig } from '../../src/config'
import { openDatabase } from '../../src/db/client'
import { createLoginGuard } from '../../src/modules/auth/loginGuard'
import { login } from '../../src/modules/auth/service'
import { cheapHasher, FakeClock } from '../helpers'
import { scratchFolders } from '../scratch'

/** The current test's database file (in a folder of its own), and its stdout and stderr lines. */
export let dbPath: string
export let out: string[]
export let err: string[]
/** The answers to the password prompts, in order. */
export let passwords: string[]

/** A fresh folder, database path, output and password queue before each test of the calling file. */
export function useCli(): void {
  const scratch = scratchFolders('qt-cli-')
  beforeEach(() => {
    dbPath = join(scratch.next(), 'qt.sqlite')
    out = []
    err = []
    passwords = []
  })
}

export const io = (): CliIO => ({
  env: { DATABASE_PATH: dbPath, LOG_LEVEL: 'error' },
  out: (line) => out.push(line),
  err: (line) => err.push(line),
  readPassword: async () => passwords.shift() ?? '',
  passwordHasher: cheapHasher,
})

export const cli = (...argv: string[]) => run(argv, io())

export const withDb = <T>(fn: (db: ReturnType<typeof openDatabase>) => T): T => {
  const db = openDatabase(dbPath)
  try {
    return fn(db)
  } finally {
    db.$client.close()
  }
}

/** The database as the server's first start leaves it. */
export const createDb = () => openDatabase(dbPath).$client.close()

export const tryLogin = async (identifier: string, password: string) => {
  const db = openDatabase(dbPath)
  try {
    const deps = { db, clock: new FakeClock(), passwordHasher: cheapHasher, config: loadConfig({}) }
    return await login(deps, createLoginGuard(deps), identifier, password, 'test', undefined)
  } finally {
    db.$client.close()
  }
}
