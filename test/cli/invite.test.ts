// `quest-tracker invite`: create, list and revoke the operator's invite links.
import { beforeEach, describe, expect, test } from 'bun:test'
import { run } from '../../src/cli'
import { systemClock } from '../../src/clock'
import { createInvite, findLiveInvite, useInvite } from '../../src/modules/invites/service'
import { FakeClock } from '../helpers'
import { cli, createDb, err, io, out, passwords, useCli, withDb } from './cli'

useCli()

describe('quest-tracker invite', () => {
  beforeEach(createDb)
  const DAY = 86_400_000
  /** The code in the link `invite create` printed last. */
  const printedCode = () => /\/join\/(qti_[\w-]+)$/.exec(out.at(-1) ?? '')?.[1] as string

  test('create prints the link once (path, or whole with --url); only its hash is stored; it works for 7 days', async () => {
    const before = Date.now()
    expect(await cli('invite', 'create')).toBe(0)
    const code = printedCode()
    expect(out).toEqual([
      expect.stringMatching(/^invite 1: makes one account, works once until \S+Z$/),
      `/join/${code}`,
    ])
    // Off by default: the operator is told the link is no use yet.
    expect(err.at(-1)).toBe(
      'quest-tracker: SIGNUP_INVITES is off: nobody can sign up with this link until the server runs with it on',
    )
    withDb((db) => {
      const invite = findLiveInvite(db, systemClock, code)
      expect(invite).toMatchObject({ id: 1, groupId: null, createdBy: null, usedAt: null })
      expect(Date.parse(invite?.expiresAt as string) - before).toBeWithin(7 * DAY, 7 * DAY + 60_000)
      expect(JSON.stringify(db.$client.query('SELECT * FROM invites').all())).not.toContain(code)
    })

    out.length = 0
    err.length = 0
    const on = { ...io(), env: { ...io().env, SIGNUP_INVITES: 'on' } }
    expect(await run(['invite', 'create', '--days', '30', '--url', 'https://quests.example.org/'], on)).toBe(0)
    expect(out.at(-1)).toBe(`https://quests.example.org/join/${printedCode()}`)
    expect(err).toEqual([expect.stringContaining('database')])
    withDb((db) => {
      const expiresAt = findLiveInvite(db, systemClock, printedCode())?.expiresAt as string
      expect(Date.parse(expiresAt) - before).toBeWithin(30 * DAY, 30 * DAY + 60_000)
    })
  })

  test.each([
    [['--days', '0'], 'invite create: --days is a whole number from 1 to 30'],
    [['--days', '31'], 'invite create: --days is a whole number from 1 to 30'],
    [['--days', '2.5'], 'invite create: --days is a whole number from 1 to 30'],
    [['--url', 'quests.lan:8080'], 'invite create: --url must start with http:// or https://'],
    [['--url', 'not a url'], "invite create: --url must be the site's address, such as http://192.168.1.10:8080"],
  ])('create %p is refused (exit 2) and makes nothing', async (flags, message) => {
    expect(await cli('invite', 'create', ...flags)).toBe(2)
    expect(err).toEqual([`quest-tracker: ${message}`])
    withDb((db) => expect(db.$client.query('SELECT count(*) AS n FROM invites').get()).toEqual({ n: 0 }))
  })

  test("list shows the pending invites, the operator's and a group's, by id; never a code, nor a used or expired one", async () => {
    passwords.push('a long password')
    await cli('user', 'add', '--username', 'Olga')
    const codes: string[] = []
    withDb((db) => {
      const now = new Date().toISOString()
      db.$client.run("INSERT INTO groups (name, owner_id, created_at) VALUES ('The Silver Flame', 1, ?)", [now])
      codes.push(createInvite(db, systemClock, { groupId: 1, createdBy: 1 }).code)
      codes.push(createInvite(db, systemClock, { groupId: null, createdBy: null }).code)
      const used = createInvite(db, systemClock, { groupId: null, createdBy: null })
      useInvite(db, systemClock, used.code, 1)
      const old = new FakeClock(Date.now() - 8 * DAY)
      createInvite(db, old, { groupId: null, createdBy: null })
    })
    out.length = 0
    expect(await cli('invite', 'list')).toBe(0)
    expect(out.map((line) => line.split('\t').slice(0, 3))).toEqual([
      ['1', 'group "The Silver Flame"', 'by "Olga"'],
      ['2', 'account', 'by the operator'],
    ])
    for (const code of codes) expect(out.join('\n')).not.toContain(code)
  })

  test('revoke ends a pending invite: its link stops working; an unknown or ended one is refused', async () => {
    expect(await cli('invite', 'create')).toBe(0)
    const code = printedCode()
    out.length = 0
    expect(await cli('invite', 'revoke', '1')).toBe(0)
    expect(out).toEqual(['revoked invite 1'])
    withDb((db) => expect(findLiveInvite(db, systemClock, code)).toBeUndefined())
    expect(await cli('invite', 'revoke', '1')).toBe(1)
    expect(err.at(-1)).toBe('quest-tracker: No pending invite 1.')
    expect(await cli('invite', 'revoke', 'x')).toBe(2)
    out.length = 0
    expect(await cli('invite', 'list')).toBe(0)
    expect(out).toEqual(['no pending invites; make one with: quest-tracker invite create'])
  })
})
