// GET /characters/{id}/next (issue 23 part 2): the ranking by XP per minute and by the next favor
// reward, with numbers worked by hand, on both APIs; another account's character is 404.
import { describe, expect, test } from 'bun:test'
import { loadCatalog, type QuestRow } from '../../catalogFixture'
import { readRows, SMALL_JSON } from '../../catalogFixtures'
import { insertCharacter, ok, refused, testApp } from '../../helpers'

const FIGHTER_9 = { classes: [{ name: 'Fighter', levels: 9 }], targetDifficulty: 'elite' as const }

async function setup(rows?: QuestRow[]) {
  const t = testApp()
  loadCatalog(t.db, rows ?? (await readRows(SMALL_JSON)))
  const alice = await t.userWithToken('alice')
  const bob = await t.userWithToken('bob')
  const brom = insertCharacter(t.db, 'alice', { givenName: 'Brom', ...FIGHTER_9 })
  const me = t.plugin(alice).characters({ id: brom.id })
  return { ...t, alice, bob, brom, me }
}

describe('by XP per minute', () => {
  // Fighter 9 on elite: the Full XP band starts at 9 - 1 - 2 = 6, so Bell Tower (6), Delera's Rest
  // (7) and Crypt (9). Elite XP with the first-time elite bonus (+45%): Bell Tower 1320 x 1.45 =
  // 1914, Delera's Rest 2404 x 1.45 = 3485.8 -> 3486, Crypt 2200 x 1.45 = 3190.
  test('own median run, else the server median, else the catalog length: the rank and the why', async () => {
    const t = await setup()
    // Three other accounts: Bell Tower elite in 240, 300 and 360 s -> the server's median 300 s.
    const bell = (completedAt: string, durationSeconds: number) => ({
      name: 'Bell Tower',
      difficulty: 'Heroic',
      setting: 'elite',
      completedAt,
      durationSeconds,
    })
    for (const [i, seconds] of [240, 300, 360].entries()) {
      const token = i === 0 ? t.bob : await t.userWithToken(`other${i}`)
      const character = insertCharacter(t.db, i === 0 ? 'bob' : `other${i}`, { givenName: `B${i}` })
      ok(
        await t.plugin(token).characters({ id: character.id }).completions.post(bell('2026-11-20T10:00:00Z', seconds)),
        201,
      )
    }
    // Brom ran Delera's Rest on elite in 10 minutes in his first life: his own time, though the
    // new life has not done it.
    ok(await t.me.lives.get())
    t.clock.advance(60_000)
    ok(
      await t.me.completions.post({
        name: "Delera's Rest",
        difficulty: 'Heroic',
        setting: 'elite',
        durationSeconds: 600,
      }),
      201,
    )
    t.clock.advance(60_000)
    ok(await t.me.lives.reincarnate.post({}))
    // The new life starts with no class levels; the game client says when it is Fighter 9 again.
    ok(await t.me.patch({ classes: FIGHTER_9.classes }))
    t.clock.advance(10_000)

    const next = ok(await t.me.next.get())
    expect(next).toMatchObject({ by: 'xp', life: 2, characterLevel: 9, setting: 'elite' })
    // 1914 / 5 = 382.8; 3486 / 10 = 348.6; 3190 / 20 = 159.5.
    expect(
      next.quests.map((q) => [q.name, q.expectedXp, q.expectedMinutes, q.minutesFrom, q.timedRuns, q.xpPerMinute]),
    ).toEqual([
      ['Bell Tower', 1914, 5, 'server', 3, 382.8],
      ["Delera's Rest", 3486, 10, 'own', 1, 348.6],
      ['Crypt', 3190, 20, 'estimate', 0, 159.5],
    ])
    // 1320 x 0.45 = 594 of Bell Tower's XP is the first-time bonus; Crypt adds 3 x 3 = 9 Coin Lords favor.
    expect(next.quests[0]?.firstTimeXp).toBe(594)
    expect(next.quests[2]?.favorGain).toBe(9)
    expect(next.quests.map((q) => q.why)).toEqual([
      "383 XP/min · 1,914 XP with the first-time elite bonus (+45%) · this server's median run 5 min (3 runs) · +9 Cryptic Order favor",
      '349 XP/min · 3,486 XP with the first-time elite bonus (+45%) · your median run 10 min (1 run)',
      '160 XP/min · 3,190 XP with the first-time elite bonus (+45%) · about 20 min (the wiki calls it Medium) · +9 The Coin Lords favor',
    ])
    // The plugin and the website answer the same.
    const cookie = await t.signIn('alice')
    expect(ok(await t.web(cookie).characters({ id: t.brom.id }).next.get())).toEqual(next)
  })

  test('done at the Play on setting (or a harder one) in this life: not suggested; an easier setting is', async () => {
    const t = await setup()
    ok(await t.me.completions.post({ name: 'Crypt', difficulty: 'Heroic', setting: 'reaper' }), 201)
    ok(await t.me.completions.post({ name: 'Bell Tower', difficulty: 'Heroic', setting: 'hard' }), 201)
    const names = ok(await t.me.next.get()).quests.map((q) => q.name)
    expect(names).toEqual(["Delera's Rest", 'Bell Tower'])
  })

  test('raids are ranked apart: a raid the catalog knows is in `raids`, never among the quests', async () => {
    // Crypt as a raid (a source's group size), and a quest whose wiki name says "(raid)".
    const rows = (await readRows(SMALL_JSON)).map((row) =>
      row.name === 'Crypt' ? { ...row, groupSize: 'Raid' as const } : row,
    )
    const bell = rows.find((row) => row.name === 'Bell Tower') as QuestRow
    const t = await setup([...rows, { ...bell, name: 'Bell Tower (raid)' }])
    const next = ok(await t.me.next.get())
    expect(next.quests.map((q) => q.name)).toEqual(["Delera's Rest", 'Bell Tower'])
    expect(next.quests.every((q) => !q.raid)).toBe(true)
    expect(next.raids.map((q) => [q.name, q.raid])).toEqual([
      ['Crypt', true],
      ['Bell Tower (raid)', true],
    ])
    expect(next.raids[0]?.why).toContain('a raid: needs a group')
  })

  test("the tracker's filters apply: an excluded patron and a pack not owned are left out", async () => {
    const t = await setup()
    ok(await t.me.progress.put({ excludedPatrons: ['Cryptic Order'] }))
    const rows = await readRows(SMALL_JSON)
    const pack = rows.find((r) => r.name === 'Crypt')?.pack as string
    ok(await t.me.progress.put({ packState: { [pack]: false } }))
    const names = ok(await t.me.next.get()).quests.map((q) => q.name)
    expect(names).not.toContain('Bell Tower')
    expect(names).not.toContain('Crypt')
  })
})

describe('by favor', () => {
  const row = (name: string, patron: string, favor: number): QuestRow => ({
    name,
    difficulty: 'Heroic',
    level: 5,
    soloXP: 500,
    normalXP: 900,
    hardXP: 950,
    eliteXP: 1000,
    duration: 'Short',
    pack: 'Free to Play',
    patron,
    favor,
    questId: null,
    groupSize: null,
    freeToVip: null,
  })

  test('the run that reaches a reward and leaves the nearest next one ranks first', async () => {
    const t = await setup([
      row('Archive', 'The Coin Lords', 22),
      row('Ledger', 'The Coin Lords', 20),
      row('Vault', 'The Coin Lords', 10),
      row('Tower', 'The Twelve', 14),
    ])
    // Archive on elite: 22 x 3 = 66 Coin Lords favor, 66 in all.
    ok(await t.me.completions.post({ name: 'Archive', difficulty: 'Heroic', setting: 'elite' }), 201)
    const next = ok(await t.me.next.get({ query: { by: 'favor' } }))
    // Ledger +60 -> 126: reaches the Coin Lords' 75, then 24 short of 150. Vault +30 -> 96: reaches
    // 75, then 54 short of 150. Tower +42 -> The Twelve 42: reaches 40, then 58 short of 100.
    expect(
      next.quests.map((q) => [
        q.name,
        q.favorGain,
        q.favorStep?.reaches.map((r) => r.at),
        q.favorStep?.closest?.missingAfter,
      ]),
    ).toEqual([
      ['Ledger', 60, [75], 24],
      ['Vault', 30, [75], 54],
      ['Tower', 42, [40], 58],
    ])
    expect(next.quests[0]?.why).toStartWith('reaches The Coin Lords 75: Character inventory tab · ')
    // Nearest now: the Coin Lords' 75, 9 away; then The Twelve's 40.
    expect(next.nextRewards.slice(0, 2)).toMatchObject([
      { kind: 'patron', patron: 'The Coin Lords', at: 75, have: 66, missing: 9 },
      { kind: 'patron', patron: 'The Twelve', at: 40, have: 0, missing: 40 },
    ])
  })

  test('only favor over the best setting already logged counts: Archive on hard adds 22 x (3 - 2) = 22', async () => {
    const t = await setup([row('Archive', 'The Coin Lords', 22)])
    ok(await t.me.completions.post({ name: 'Archive', difficulty: 'Heroic', setting: 'hard' }), 201)
    const next = ok(await t.me.next.get({ query: { by: 'favor' } }))
    expect(next.quests.map((q) => [q.name, q.favorGain])).toEqual([['Archive', 22]])
  })
})

describe('who may ask, and bad queries', () => {
  test("another account's character is 404; signed out 401; a bad limit or by is 400", async () => {
    const t = await setup()
    refused(await t.plugin(t.bob).characters({ id: t.brom.id }).next.get(), 404)
    refused(
      await t
        .web(await t.signIn('bob'))
        .characters({ id: t.brom.id })
        .next.get(),
      404,
    )
    refused(await t.api.plugin.characters({ id: t.brom.id }).next.get(), 401)
    for (const query of ['limit=0', 'limit=51', 'by=speed', 'limit=x']) {
      const answer = await t.json('GET', `/api/plugin/characters/${t.brom.id}/next?${query}`, { token: t.alice })
      expect(answer.status).toBe(400)
    }
    expect(ok(await t.me.next.get({ query: { limit: 1 } })).quests).toHaveLength(1)
  })

  test("the character's own times: every run of every life, medians by hand; another account's character is 404", async () => {
    const t = await setup()
    const run = (completedAt: string, durationSeconds: number, xpEarned: number) =>
      t.me.completions.post({
        name: 'Crypt',
        difficulty: 'Heroic',
        setting: 'elite',
        completedAt,
        durationSeconds,
        xpEarned,
      })
    // 600 s for 3000 XP (300/min) and 1200 s for 3000 (150/min): median 900 s and 225 XP/min.
    ok(await run('2026-11-20T10:00:00Z', 600, 3000), 201)
    ok(await run('2026-11-20T11:00:00Z', 1200, 3000))
    expect(ok(await t.me['quest-times'].get()).times).toEqual([
      {
        name: 'Crypt',
        difficulty: 'Heroic',
        setting: 'elite',
        runs: 2,
        medianDurationSeconds: 900,
        medianXpPerMinute: 225,
      },
    ])
    refused(await t.plugin(t.bob).characters({ id: t.brom.id })['quest-times'].get(), 404)
    refused(
      await t
        .web(await t.signIn('bob'))
        .characters({ id: t.brom.id })
        ['quest-times'].get(),
      404,
    )
  })
})
