// GET /characters/{id}/sagas (issue 41 section 4) on both APIs, over the shipped catalog snapshot
// (the table's quests resolve against it, as on a server's first start): the sagas with their
// sources, each quest done or not and on what, in the current quest life; the quests the catalog
// lacks listed by name and still counted when the game logged them; another account's character
// and a missing one 404.
import { describe, expect, test } from 'bun:test'
import { silentLogger } from '../../../src/logger'
import { fillFromSnapshot } from '../../../src/modules/catalog/snapshot'
import { SAGAS } from '../../../src/rules/quests/sagaTable'
import { insertCharacter, ok, refused, testApp } from '../../helpers'

async function setup() {
  const t = testApp()
  fillFromSnapshot({ db: t.db, logger: silentLogger })
  const token = await t.userWithToken('alice')
  const character = insertCharacter(t.db, 'alice', { givenName: 'Vex', classes: [{ name: 'Rogue', levels: 15 }] })
  const me = t.plugin(token).characters({ id: character.id })
  return { ...t, token, character, me }
}

const saga = <S extends { id: string }>(answer: { sagas: S[] }, id: string) => answer.sagas.find((s) => s.id === id)

describe('GET /characters/{id}/sagas', () => {
  test('a character with nothing done: every saga of the table, nothing done, and where the table comes from', async () => {
    const t = await setup()
    const answer = ok(await t.me.sagas.get())
    expect(answer.character).toEqual({ id: t.character.id, name: 'Vex' })
    expect(answer.questLife).toBe(1)
    expect(answer.sources.map((s) => [s.name, s.licence.slice(0, 11)])).toEqual([
      ['YourDDO saga tracker (veteran-software/yourddo)', 'MIT License'],
      ['ddoapps/data', 'MIT License'],
    ])
    expect(answer.sagas.map((s) => s.id)).toEqual(SAGAS.map((s) => s.id))
    expect(answer.sagas.every((s) => s.done === 0 && s.total === s.quests.length)).toBe(true)
    const cogs = saga(answer, 'cogs-heroic')
    expect(cogs).toMatchObject({
      name: 'Cogs',
      tier: 'Heroic',
      npc: 'Bellman Rulth',
      levels: '15-16',
      rewardXp: { normal: 16000, hard: 22000, elite: 35000, trueElite: 46000 },
      done: 0,
      total: 8,
    })
    expect(saga(answer, 'cogs-legendary')?.rewardXp).toBeNull()
  })

  test('done at the saga’s tier, on its best setting with the most skulls; another tier does not count', async () => {
    const t = await setup()
    const post = (body: Parameters<typeof t.me.completions.post>[0]) => t.me.completions.post(body)
    ok(await post({ name: 'Smash and Burn', difficulty: 'Heroic', setting: 'hard' }), 201)
    ok(await post({ name: 'Smash and Burn', difficulty: 'Heroic', setting: 'R4' }), 201)
    ok(await post({ name: 'Smash and Burn', difficulty: 'Heroic', setting: 'casual' }), 201)
    ok(await post({ name: 'Scavenger Hunt', setting: 'elite' }), 201) // no tier: every tier
    ok(await post({ name: 'Roll Call', difficulty: 'Legendary', setting: 'elite' }), 201) // the legendary saga's
    const answer = ok(await t.me.sagas.get())
    const heroic = saga(answer, 'cogs-heroic')
    expect([heroic?.done, heroic?.total]).toEqual([2, 8])
    expect(heroic?.quests.find((q) => q.name === 'Smash and Burn')).toEqual({
      name: 'Smash and Burn',
      catalog: { name: 'Smash and Burn', difficulty: 'Heroic', level: 15 },
      done: true,
      settings: ['casual', 'hard', 'reaper'],
      best: 'reaper',
      reaperSkulls: 4,
    })
    expect(heroic?.quests.find((q) => q.name === 'Roll Call')).toMatchObject({ done: false, best: null, settings: [] })
    const legendary = saga(answer, 'cogs-legendary')
    expect(legendary?.quests.filter((q) => q.done).map((q) => [q.name, q.best])).toEqual([
      ['Roll Call', 'elite'],
      ['Scavenger Hunt', 'elite'],
    ])
  })

  test('a quest the catalog lacks is listed by name, and counts when the game logged it', async () => {
    const t = await setup()
    ok(await t.me.completions.post({ name: 'Vecna Unleashed', difficulty: 'Heroic', setting: 'normal' }), 201)
    const vecna = saga(ok(await t.me.sagas.get()), 'vecna-unleashed-heroic')
    // Two of its quests are older than the pack (The Bark and the Blade, Enemy of my Enemy).
    expect(vecna?.quests.filter((q) => q.catalog === null)).toHaveLength(11)
    expect(vecna?.quests.find((q) => q.name === 'Vecna Unleashed')).toMatchObject({ done: true, best: 'normal' })
    expect(vecna?.done).toBe(1)
  })

  test('the current quest life only: a true reincarnation starts the sagas over, as the tracker does', async () => {
    const t = await setup()
    ok(await t.me.completions.post({ name: 'Smash and Burn', difficulty: 'Heroic', setting: 'elite' }), 201)
    t.clock.advance(60_000)
    ok(await t.me.lives.reincarnate.post({ kind: 'heroic' }))
    const answer = ok(await t.me.sagas.get())
    expect(answer.questLife).toBe(2)
    expect(saga(answer, 'cogs-heroic')?.done).toBe(0)
  })

  test('the website’s cookie API answers the same', async () => {
    const t = await setup()
    ok(await t.me.completions.post({ name: 'Death House', difficulty: 'Legendary', setting: 'R2' }), 201)
    const web = t.web(await t.signIn('alice')).characters({ id: t.character.id })
    const answer = ok(await web.sagas.get())
    expect(answer).toEqual(ok(await t.me.sagas.get()))
    expect(saga(answer, 'mists-of-ravenloft-legendary')?.quests.find((q) => q.name === 'Death House')).toMatchObject({
      done: true,
      best: 'reaper',
      reaperSkulls: 2,
    })
  })

  test('another account’s character, or none, is 404; no token is 401', async () => {
    const t = await setup()
    const mallory = t.plugin(await t.userWithToken('mallory'))
    refused(await mallory.characters({ id: t.character.id }).sagas.get(), 404)
    refused(await t.plugin(t.token).characters({ id: 9999 }).sagas.get(), 404)
    refused(await t.api.plugin.characters({ id: t.character.id }).sagas.get(), 401)
  })
})

test('/info announces both parts of issue 41', async () => {
  const t = await setup()
  const info = ok(await t.plugin(t.token).info.get())
  expect(info.features).toMatchObject({ completionReaperSkulls: true, sagas: true })
})
