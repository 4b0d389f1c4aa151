// `quest-tracker route`: export and import a route file.
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { cli, createDb, dbPath, err, out, passwords, useCli, withDb } from './cli'

useCli()

describe('quest-tracker route', () => {
  test('export prints a file that import turns into a new route for another owner', async () => {
    passwords.push('a long password', 'a long password')
    await cli('user', 'add', '--username', 'Alice')
    await cli('user', 'add', '--username', 'Bob')
    const file = join(dbPath, '..', 'route.json')
    await Bun.write(
      file,
      JSON.stringify({
        format: 'quest-tracker-route',
        formatVersion: 1,
        name: 'Korthos run',
        quests: [{ name: 'The Collaborator' }, { name: "Misery's Peak", difficulty: 'Heroic', setting: 'hard' }],
      }),
    )
    expect(await cli('route', 'import', file, '--owner', 'alice')).toBe(0)
    expect(out.pop()).toBe('imported route 1 "Korthos run" (2 steps), owned by "alice"')
    expect(await cli('route', 'export', '1')).toBe(0)
    const exported = JSON.parse(out.pop() as string)
    expect(exported).toMatchObject({
      format: 'quest-tracker-route',
      formatVersion: 1,
      name: 'Korthos run',
      quests: [
        { name: 'The Collaborator', difficulty: 'Heroic', setting: 'elite' },
        { name: "Misery's Peak", difficulty: 'Heroic', setting: 'hard' },
      ],
    })
    await Bun.write(file, JSON.stringify(exported))
    expect(await cli('route', 'import', file, '--owner', 'Bob')).toBe(0)
    const owners = withDb((db) => db.$client.query('SELECT id, owner_id FROM routes ORDER BY id').all())
    expect(owners).toEqual([
      { id: 1, owner_id: 1 },
      { id: 2, owner_id: 2 },
    ])
  })

  test('errors: unknown route, unknown owner, bad file, missing --owner', async () => {
    createDb()
    expect(await cli('route', 'export', '9')).toBe(1)
    expect(err.pop()).toBe('quest-tracker: No route 9.')
    const file = join(dbPath, '..', 'bad.json')
    await Bun.write(file, '{"name": ')
    expect(await cli('route', 'import', file, '--owner', 'nobody')).toBe(1)
    expect(await cli('route', 'import', file)).toBe(2)
    expect(await cli('route', 'export', 'abc')).toBe(2)
    expect(withDb((db) => db.$client.query('SELECT count(*) AS n FROM routes').get())).toEqual({ n: 0 })
  })
})
