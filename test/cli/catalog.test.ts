// `quest-tracker catalog sync` (from a JSON file or the HTML page) and `catalog status`.
import { beforeEach, describe, expect, test } from 'bun:test'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { run } from '../../src/cli'
import { cli, createDb, dbPath, err, io, out, useCli, withDb } from './cli'

useCli()

describe('quest-tracker catalog sync', () => {
  beforeEach(createDb)
  const fixture = (name: string) => join(import.meta.dir, '..', 'fixtures', name)
  const questCount = () =>
    withDb((db) => (db.$client.query('SELECT count(*) AS n FROM quests').get() as { n: number }).n)

  test('--from a JSON file loads the catalog and prints one summary line (not 12 "added:" lines)', async () => {
    const code = await run(['catalog', 'sync', '--from', fixture('catalog-small.json')], {
      ...io(),
      env: { ...io().env, LOG_LEVEL: 'info' }, // the sync's own log line used to repeat the summary
    })
    expect(code).toBe(0)
    expect(out).toEqual([
      expect.stringMatching(
        /^Catalog synced from .*catalog-small\.json \(quest rows\): 12 rows \(12 added, 0 changed, 0 not listed there kept\)\.$/,
      ),
    ])
    expect(questCount()).toBe(12)
  })

  test('--verbose adds a line per quest added or changed', async () => {
    writeFileSync(
      join(dbPath, '..', 'two.json'),
      JSON.stringify((await Bun.file(fixture('catalog-small.json')).json()).slice(0, 2)),
    )
    expect(await cli('catalog', 'sync', '--from', join(dbPath, '..', 'two.json'), '--verbose')).toBe(0)
    expect(out).toHaveLength(3)
    expect(out.slice(1).every((line) => line.startsWith('  added: '))).toBe(true)
  })

  test('--from the HTML page layout gives the same rows', async () => {
    expect(await cli('catalog', 'sync', '--from', fixture('catalog-small.json'))).toBe(0)
    out.length = 0
    expect(await cli('catalog', 'sync', '--from', fixture('catalog-small.html'))).toBe(0)
    expect(out).toHaveLength(1)
    expect(out[0]).toContain('12 rows (0 added, 0 changed, 0 not listed there kept)')
  })

  test('a source that cannot be read keeps the catalog and exits 1 with one line', async () => {
    await cli('catalog', 'sync', '--from', fixture('catalog-small.json'))
    err.length = 0
    expect(await cli('catalog', 'sync', '--from', fixture('no-such-file.json'))).toBe(1)
    expect(err).toHaveLength(2)
    expect(err[0]).toBe(`quest-tracker: database ${dbPath}`)
    expect(err[1]).toContain('the current catalog (12 rows) is kept')
    expect(questCount()).toBe(12)
  })

  test('misuse exits 2', async () => {
    expect(await cli('catalog', 'fetch')).toBe(2)
    expect(await cli('catalog', 'sync', 'extra')).toBe(2)
    expect(await cli('catalog', 'status', 'extra')).toBe(2)
    expect(err).toHaveLength(3)
  })

  test('status says how many quests, from where, and how each source last went', async () => {
    expect(await cli('catalog', 'status')).toBe(0)
    expect(out[0]).toBe('quests: 0 (never filled: the server fills it when it starts)')
    out.length = 0
    expect(await cli('catalog', 'sync', '--from', fixture('catalog-small.json'))).toBe(0)
    expect(await cli('catalog', 'sync', '--from', fixture('no-such-file.json'))).toBe(1)
    out.length = 0
    expect(await cli('catalog', 'status')).toBe(0)
    expect(out[0]).toMatch(/^quests: 12, from catalog-small\.json, synced \d{4}-\d\d-\d\dT/)
    expect(out[1]).toBe(
      'sources: https://ddowiki.com/page/Quests_by_level_and_XP, then https://api.ddoaudit.com/v1/quests',
    )
    expect(out.slice(2)).toEqual([
      expect.stringMatching(/^ {2}\S+ {2}no-such-file\.json: failed \(does not exist\)$/),
      expect.stringMatching(/^ {2}\S+ {2}catalog-small\.json: ok \(12 quest rows read\)$/),
    ])
  })
})
