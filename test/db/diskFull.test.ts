// A full disk, for real: the database on a small file system (a 4 MiB tmpfs filled with a ballast
// file, when this machine lets the tests mount one) and, everywhere, the same failure from a page
// limit (PRAGMA max_page_count: SQLite answers SQLITE_FULL exactly as for a full disk). A write
// answers 503 with nothing half-written, reads keep working, /api/health says the server is
// degraded, the log says so once per episode, and writes resume by themselves when space returns.
import { afterAll, describe, expect, test } from 'bun:test'
import { closeSync, mkdtempSync, openSync, rmdirSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../src/db/client'
import { SCHEMA_VERSION } from '../../src/db/migrate'
import type { Logger } from '../../src/logger'
import { insertCharacter, nextTurn, ok, refused, testApp } from '../helpers'
import { scratchFolders } from '../scratch'

const scratch = scratchFolders('qt-disk-')

/** A disk the test can fill and free: where the database lives, and how. */
interface Disk {
  folder: string
  /** Takes every free byte (after the test has set the scene). */
  fill(sqlite: import('bun:sqlite').Database): void
  free(sqlite: import('bun:sqlite').Database): void
}

/** SQLite's page limit: no page beyond those the file has, as on a disk with no block left. */
const pageLimit = (): Disk => ({
  folder: scratch.next(),
  fill: (sqlite) => {
    const pages = sqlite.query<{ page_count: number }, []>('PRAGMA page_count').get()?.page_count
    sqlite.run(`PRAGMA max_page_count = ${pages}`)
  },
  free: (sqlite) => {
    sqlite.run('PRAGMA max_page_count = 1073741823')
  },
})

/** A real file system of 4 MiB, filled by a ballast file; null when this machine cannot mount one. */
function smallFileSystem(): Disk | null {
  const folder = mkdtempSync(join(tmpdir(), 'qt-tmpfs-'))
  const mounted = Bun.spawnSync(['mount', '-t', 'tmpfs', '-o', 'size=4m,mode=0700', 'tmpfs', folder], {
    stderr: 'pipe',
  })
  if (mounted.exitCode !== 0) {
    console.warn(
      `skipped: cannot mount a small file system here (${mounted.stderr.toString().trim()}); the page limit stands in`,
    )
    rmdirSync(folder)
    return null
  }
  afterAll(() => {
    // Lazy: the folder is detached at once even if something of the test still holds a file there.
    Bun.spawnSync(['umount', '-l', folder])
    rmdirSync(folder)
  })
  const ballast = join(folder, 'ballast')
  return {
    folder,
    fill: (sqlite) => {
      // The WAL emptied first: otherwise a write could reuse its room without a new block.
      sqlite.run('PRAGMA wal_checkpoint(TRUNCATE)')
      const fd = openSync(ballast, 'w')
      try {
        for (const size of [64 * 1024, 4096, 512]) {
          const chunk = Buffer.alloc(size, 1)
          for (;;) {
            try {
              writeSync(fd, chunk)
            } catch {
              break // ENOSPC
            }
          }
        }
      } finally {
        closeSync(fd)
      }
    },
    free: () => rmSync(ballast, { force: true }),
  }
}

const disks: [string, () => Disk | null][] = [
  ['the page limit', pageLimit],
  ['a small file system', smallFileSystem],
]

/** Every row of every table: what is stored, to compare before and after a refused write. */
const stored = (sqlite: import('bun:sqlite').Database) =>
  Object.fromEntries(
    sqlite
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map(({ name }) => [name, sqlite.query(`SELECT * FROM "${name}" ORDER BY rowid`).all()]),
  )

describe.each(disks)('a full disk (%s)', (_name, makeDisk) => {
  const disk = makeDisk()
  const run = disk ? test : test.skip

  run('a write answers 503 with nothing half-written; reads, health and the log say so; writes resume', async () => {
    if (!disk) return
    const lines: { level: string; message: string }[] = []
    const at = (level: string) => (message: string) => {
      lines.push({ level, message })
    }
    const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
    const db = openDatabase(join(disk.folder, 'qt.sqlite'))
    const t = testApp({}, { db, logger })
    try {
      const token = await t.userWithToken('alice')
      const cookie = await t.signIn('alice')
      const character = insertCharacter(db, 'alice', { givenName: 'Brom' })
      const me = t.plugin(token).characters({ id: character.id })
      for (const name of ['The Pit', 'Stormcleave Outpost', 'Tangleroot Gorge'])
        ok(await me.completions.post({ name, setting: 'elite' }), 201)
      ok(await me.progress.put({ questNotes: { 'The Pit': 'bring a rogue' } }))
      const notes = { long: 'x'.repeat(60 * 1024) }
      const completions = Array.from({ length: 500 }, (_, i) => ({ name: `Quest ${i}`, setting: 'hard' }))
      const steps = Array.from({ length: 2000 }, (_, i) => ({ name: `Quest ${i}` }))

      disk.fill(db.$client)
      const before = stored(db.$client)
      // The refused writes: one field, a replace of a whole set, a route of many rows.
      const refusals = [
        await me.progress.put({ questNotes: notes }),
        await me.progress.put({ completions, questNotes: notes }),
        await t.plugin(token).routes.post({ name: 'Long road', quests: steps }),
      ]
      for (const answer of refusals) {
        expect(refused(answer, 503).error).toBe("The server's disk is full, so nothing was saved; try again later.")
        expect(answer.response.headers.get('retry-after')).toBe('60')
        expect(stored(db.$client)).toEqual(before)
      }
      // Reads go on, with a token whose last use is due to be recorded and a session whose
      // expiry is due to move (each skipped while there is no room).
      t.clock.advance(2 * 60 * 60_000)
      expect(ok(await me.progress.get()).completions).toHaveLength(3)
      expect(ok(await t.web(cookie).characters.get()).characters).toHaveLength(1)
      expect(ok(await t.plugin(token).characters.get()).characters).toHaveLength(1)
      ok(await t.plugin(token).info.get())
      // Health says the server is degraded: 503, ok false, the reason; Docker's check fails.
      const degraded = await t.api.health.get()
      expect(degraded.status).toBe(503)
      expect(degraded.error?.value as unknown).toEqual({
        ok: false,
        error: 'The disk is full: reads work, writes are refused until space is freed.',
        schemaVersion: SCHEMA_VERSION,
      })
      // One line for the episode, not one per refused request.
      const episode = lines.filter((line) => /disk/.test(line.message))
      expect(episode).toHaveLength(1)
      expect(episode[0]?.level).toBe('error')
      expect(episode[0]?.message).toStartWith('writes fail: the disk is full')

      // Space returns: nothing to restart. The health check notices first, then writes work.
      disk.free(db.$client)
      expect(ok(await t.api.health.get())).toMatchObject({ ok: true, schemaVersion: SCHEMA_VERSION })
      ok(await me.progress.put({ completions, questNotes: notes }))
      expect(ok(await me.progress.get()).completions).toHaveLength(500)
      const after = lines.filter((line) => /disk|writes work/.test(line.message))
      expect(after).toHaveLength(2)
      expect(after[1]).toMatchObject({ level: 'info' })
      expect(after[1]?.message).toStartWith('writes work again')
    } finally {
      disk.free(db.$client)
      db.$client.close()
    }
  })

  run('a write that goes through ends the episode too, without a health check', async () => {
    if (!disk) return
    const lines: string[] = []
    const logger: Logger = {
      debug() {},
      info: (message) => lines.push(message),
      warn: (message) => lines.push(message),
      error: (message) => lines.push(message),
    }
    const db = openDatabase(join(disk.folder, 'second.sqlite'))
    const t = testApp({}, { db, logger })
    try {
      const token = await t.userWithToken('bob')
      const character = insertCharacter(db, 'bob', { givenName: 'Ann' })
      const me = t.plugin(token).characters({ id: character.id })
      const notes = { long: 'y'.repeat(60 * 1024) }
      disk.fill(db.$client)
      refused(await me.progress.put({ questNotes: notes }), 503)
      refused(await me.progress.put({ questNotes: notes }), 503)
      disk.free(db.$client)
      ok(await me.progress.put({ questNotes: notes }))
      // The write itself ended it (the log hook looks once the answer is out), before health asks.
      await nextTurn()
      expect(lines.filter((line) => /^writes work again/.test(line))).toHaveLength(1)
      expect(ok(await t.api.health.get()).ok).toBe(true)
      expect(lines.filter((line) => /^writes (fail|work again)/.test(line))).toEqual([
        expect.stringMatching(/^writes fail: the disk is full/),
        expect.stringMatching(/^writes work again/),
      ])
    } finally {
      disk.free(db.$client)
      db.$client.close()
    }
  })
})
