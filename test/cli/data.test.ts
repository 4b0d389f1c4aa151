// `quest-tracker data export` and `completions export|import`.
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { cli, dbPath, err, out, passwords, useCli, withDb } from './cli'

useCli()

describe('quest-tracker data export and completions export|import', () => {
  /** An account with a character and one completion, straight into the database file. */
  async function withCharacter() {
    passwords.push('a long password')
    await cli('user', 'add', '--username', 'Alice')
    withDb((db) => {
      const now = '2026-11-21T12:00:00.000Z'
      db.$client.run(
        "INSERT INTO characters (user_id, given_name, share_token, created_at, updated_at) VALUES (1, 'Tordek', 'tok', ?, ?)",
        [now, now],
      )
      db.$client.run(
        "INSERT INTO completions (character_id, name, difficulty, setting, completed_at, duration_seconds, xp_earned, updated_at) VALUES (1, 'The Pit', 'Heroic', 'elite', '2026-11-20T20:00:00.000Z', 600, 900, ?)",
        [now],
      )
    })
    out.length = 0
  }

  test('data export prints the account as JSON; an unknown owner is exit 1', async () => {
    await withCharacter()
    expect(await cli('data', 'export', '--owner', 'alice')).toBe(0)
    const document = JSON.parse(out.join('\n'))
    expect(document).toMatchObject({ format: 'quest-tracker-export', version: 1, account: { username: 'Alice' } })
    expect(document.characters.map((c: { name: string }) => c.name)).toEqual(['Tordek'])
    expect(JSON.stringify(document)).not.toContain('tok')
    expect(await cli('data', 'export', '--owner', 'nobody')).toBe(1)
    expect(err.pop()).toBe('quest-tracker: No account "nobody".')
    expect(await cli('data', 'export')).toBe(2)
    expect(err.pop()).toBe('quest-tracker: data export: give --owner NAME (the account to export)')
  })

  test('completions export prints CSV; import previews, then writes with --confirm, and adds nothing twice', async () => {
    await withCharacter()
    expect(await cli('completions', 'export', '1')).toBe(0)
    expect(out).toEqual([
      'name,difficulty,setting,completedAt,durationSeconds,xpEarned,reaperSkulls,reaperXpEarned,runs\nThe Pit,Heroic,elite,2026-11-20T20:00:00.000Z,600,900,,,1',
    ])
    const file = join(dbPath, '..', 'done.csv')
    await Bun.write(file, 'name,setting\nThe Pit,elite\nThe Pit,hard\nNo Such Quest,elite\nBad,x\n')
    const count = () =>
      withDb((db) => (db.$client.query('SELECT count(*) AS n FROM completions').get() as { n: number }).n)
    out.length = 0
    expect(await cli('completions', 'import', file, '--character', '1')).toBe(0)
    expect(count()).toBe(1)
    expect(out[0]).toBe('would add 0 of 4; already stored 0; ambiguous 0; not in the catalog 4; unreadable 0')
    out.length = 0
    expect(await cli('completions', 'import', file, '--character', '1', '--confirm', '--keep-unmatched')).toBe(0)
    expect(out[0]).toBe('added 3 of 4; already stored 1; ambiguous 0; not in the catalog 0; unreadable 0')
    expect(count()).toBe(4)
    out.length = 0
    expect(await cli('completions', 'import', file, '--character', '1', '--confirm', '--keep-unmatched')).toBe(0)
    expect(out[0]).toBe('added 0 of 4; already stored 4; ambiguous 0; not in the catalog 0; unreadable 0')
    expect(count()).toBe(4)
  })

  test('misuse and bad files: one line, exit 2; an unknown character: exit 1', async () => {
    await withCharacter()
    const file = join(dbPath, '..', 'bad.csv')
    await Bun.write(file, '"name\n')
    expect(await cli('completions', 'import', file)).toBe(2)
    expect(err.pop()).toBe('quest-tracker: completions import: give --character ID')
    expect(await cli('completions', 'import', file, '--character', '1')).toBe(2)
    expect(err.pop()).toBe(
      'quest-tracker: completions import: The CSV file is not valid at line 2, column 1: a quoted field is not closed.',
    )
    expect(await cli('completions', 'export', '7')).toBe(1)
    expect(err.pop()).toBe('quest-tracker: No character 7.')
    expect(await cli('completions', 'export', 'x')).toBe(2)
    expect(err.pop()).toBe('quest-tracker: completions export: the character id is a whole number')
  })
})
