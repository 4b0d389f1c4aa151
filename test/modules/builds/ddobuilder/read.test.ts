// Real data end to end: a DDO Builder character file, turned into a build document by the
// server's own reader (src/modules/builds/ddobuilder/), uploaded as the live snapshot,
// promoted and reincarnated.
// The shared example (../shared/fixtures) runs when present; our own small file always does.
import { describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { characters } from '../../../../src/db/schema'
import { fromDdoBuilder } from '../../../../src/modules/builds/ddobuilder'
import type { Breakdown } from '../../../../src/rules/builds/breakdown'
import { insertCharacter, ok, testApp } from '../../../helpers'

const sharedMonk = join(
  import.meta.dir,
  '..',
  '..',
  '..',
  '..',
  '..',
  'shared',
  'fixtures',
  'builds',
  'example-monk.DDOBuild',
)
const haveShared = existsSync(sharedMonk)
if (!haveShared) console.warn('skipped: ../shared/fixtures not found (the example-monk.DDOBuild case)')

async function upload(file: string) {
  const h = testApp()
  const token = await h.userWithToken('alice')
  const character = insertCharacter(h.db, 'alice', { givenName: 'Example' })
  const me = h.plugin(token).characters({ id: character.id })
  const { document } = fromDdoBuilder(await Bun.file(file).text())
  const live = await me.live.put({ document, source: 'DDO Builder' })
  const profile = h.db.select().from(characters).where(eq(characters.id, character.id)).get()!
  return { ...h, token, me, live, profile, document }
}

/** The planned breakdown an answer holds (the rules' Breakdown, stored as the server computed it). */
const breakdownOf = (view: { breakdownCache: unknown }) => view.breakdownCache as Breakdown

describe('our small DDO Builder file (Dwarf Fighter 3 / Rogue 1)', () => {
  const file = join(import.meta.dir, '..', '..', '..', 'fixtures', 'small-fighter.DDOBuild')

  test('PUT live syncs the profile and the past lives', async () => {
    const { live, profile } = await upload(file)
    const body = ok(live)
    expect(profile.classes).toEqual([
      { name: 'Fighter', levels: 3 },
      { name: 'Rogue', levels: 1 },
    ])
    expect(profile.epicLevels).toBe(0)
    expect(profile.race).toBe('Dwarf')
    expect(body.life.specialFeats).toEqual([
      { name: 'Past Life: Fighter', type: 'HeroicPastLife', stacks: 2 },
      { name: 'Past Life: Dwarf', type: 'RacialPastLife', stacks: 1 },
    ])
  })

  test('promoted, its breakdown matches the hand-worked numbers', async () => {
    // Spend (raises -> points): Str 10 -> 16 (18), Dex 4 -> 4 (12), Con 8 -> 10 (16); 30 of 36.
    // Str 18 + level 4 bump + tome 2 = 21 (+5); Con 16 + Dwarf 2 + tome 1 = 19 (+4);
    // Cha 8 - 2 = 6 (-2). HP: Fighter 3 x 10 + Rogue 1 x 8 = 38, + 4 x level 4 = 54.
    // Saves: Fighter 3 (Fort 3, Ref 1, Will 1) + Rogue 1 (Fort 0, Ref 2, Will 0) = 3 / 3 / 1;
    // with Con +4, Dex +1, Wis -1: 7 / 4 / 0.
    const { me } = await upload(file)
    const body = ok(await me.live['promote-to-planned'].post())
    expect(body.validationErrors).toEqual([])
    const b = breakdownOf(body)
    expect(b.buildPoints).toEqual({ available: 36, spent: 30 })
    expect(b.abilities.str.score).toBe(21)
    expect(b.abilities.con.score).toBe(19)
    expect(b.abilities.cha.score).toBe(6)
    expect(b.hp).toBe(54)
    expect(b.sp).toBe(0)
    expect(Object.fromEntries(Object.entries(b.saves).map(([k, v]) => [k, v.total]))).toEqual({
      fortitude: 7,
      reflex: 4,
      will: 0,
    })
  })
})

describe('the shared example monk (Aasimar Monk 20, level 34)', () => {
  test.skipIf(!haveShared)('PUT live syncs Monk 20, 14 epic levels, Aasimar and its past lives', async () => {
    const { live, profile, document } = await upload(sharedMonk)
    const body = ok(live)
    expect(profile.classes).toEqual([{ name: 'Monk', levels: 20 }])
    expect(profile.epicLevels).toBe(14)
    expect(profile.race).toBe('Aasimar')
    // Every stored special feat is one (name, type) entry; each past life is at 3 stacks.
    const pastLives = body.life.specialFeats.filter((f) => f.type.endsWith('PastLife'))
    expect(pastLives.length).toBeGreaterThan(40)
    expect(pastLives.every((f) => f.stacks === 3)).toBe(true)
    expect(body.document.build?.stances).toEqual(document.build?.stances)
  })

  test.skipIf(!haveShared)('promoted, its breakdown matches the hand-worked numbers', async () => {
    // Spend (raises -> points): Str 1 -> 1 (9), Dex 6 -> 6 (14), Con 9 -> 13 (17), Wis 10 -> 16 (18);
    // 36 of 36. Tomes +8 everywhere. Aasimar: Wis +2. Bumps 4..32 all Wisdom: 8 at level 34.
    //   Str 9 + 8 = 17 (+3)   Dex 14 + 8 = 22 (+6)   Con 17 + 8 = 25 (+7)
    //   Int 8 + 8 = 16 (+3)   Wis 18 + 2 + 8 + 8 = 36 (+13)   Cha 16 (+3)
    // HP: Monk 20 x 8 = 160, 14 epic levels x 10 = 140, Con +7 x 34 = 238; total 538.
    // Saves: Monk 20, all good: 2 + 10 = 12 each; totals 12 + 7 = 19, 12 + 6 = 18, 12 + 13 = 25.
    const { me } = await upload(sharedMonk)
    const body = ok(await me.live['promote-to-planned'].post())
    expect(body.validationErrors).toEqual([])
    const b = breakdownOf(body)
    expect(b.buildPoints).toEqual({ available: 36, spent: 36 })
    expect(Object.fromEntries(Object.entries(b.abilities).map(([k, v]) => [k, v.score]))).toEqual({
      str: 17,
      dex: 22,
      con: 25,
      int: 16,
      wis: 36,
      cha: 16,
    })
    expect(b.hp).toBe(538)
    expect(b.hpDetail).toEqual({ classes: 160, epicLevels: 140, constitution: 238 })
    expect(Object.fromEntries(Object.entries(b.saves).map(([k, v]) => [k, v.total]))).toEqual({
      fortitude: 19,
      reflex: 18,
      will: 25,
    })
  })

  test.skipIf(!haveShared)('reincarnating keeps Past Life: Monk at the 3-stack cap', async () => {
    const { me } = await upload(sharedMonk)
    // A heroic reincarnation out of a Monk 20 (the game grants one kind of past life at a time).
    const body = ok(await me.lives.reincarnate.post({ grantHeroic: true }))
    const find = (name: string) => body.specialFeats.find((f) => f.name === name)
    expect(find('Past Life: Monk')?.stacks).toBe(3)
    expect(find('Past Life: Aasimar')?.stacks).toBe(3)
    expect(body.specialFeats.some((f) => f.type === 'Favor')).toBe(false)
  })
})
