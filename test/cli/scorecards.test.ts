// `quest-tracker scorecards import`.
import { beforeEach, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { cli, createDb, err, out, useCli, withDb } from './cli'

useCli()

describe('quest-tracker scorecards import', () => {
  beforeEach(createDb)
  test('loads the file, names those not in the catalog', async () => {
    expect(await cli('scorecards', 'import', join(import.meta.dir, '..', 'fixtures', 'scorecards.json'))).toBe(0)
    expect(out[0]).toMatch(/^imported 3 scorecards from /)
    expect(out[1]).toContain('A Quest Not In The Catalog')
    const stored = withDb((db) => db.$client.query('SELECT quest_name FROM scorecards ORDER BY 1').all())
    expect(stored).toEqual([
      { quest_name: 'A Quest Not In The Catalog' },
      { quest_name: 'Crypt' },
      { quest_name: 'Shadow Gate' },
    ])
  })

  test('a missing file is one line and exit 1', async () => {
    expect(await cli('scorecards', 'import', '/nonexistent/scorecards.json')).toBe(1)
    expect(err.at(-1)).toContain('does not exist')
  })
})
