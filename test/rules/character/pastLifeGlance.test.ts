// Past lives at a glance, with numbers worked by hand: history and snapshot combined (the larger
// per past life, capped at 3), every past life of the game data listed (0 included), other
// spellings and unknown feats, what the next reincarnation grants, and an account's sums.
import { describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fromDdoBuilder } from '../../../src/modules/builds/ddobuilder'
import {
  accountPastLives,
  type GlanceInput,
  MAX_OTHER_PAST_LIVES,
  type PastLifeGlance,
  pastLifeGlance,
  pastLifeName,
} from '../../../src/rules/character/pastLifeGlance'

const heroic = (name: string, stacks = 1) => ({ name: `Past Life: ${name}`, type: 'HeroicPastLife', stacks })
const racial = (name: string, stacks = 1) => ({ name: `Past Life: ${name}`, type: 'RacialPastLife', stacks })
const iconic = (name: string, stacks = 1) => ({ name: `Past Life: ${name}`, type: 'IconicPastLife', stacks })
const epic = (name: string, stacks = 1) => ({ name: `Past Life: ${name}`, type: 'EpicPastLife', stacks })

const FIGHTER_20 = { race: 'Human', classes: [{ name: 'Fighter', levels: 20 }] }

function glance(input: Partial<GlanceInput>): PastLifeGlance {
  return pastLifeGlance({ history: [], snapshot: null, current: FIGHTER_20, level: 20, ...input })
}

const heroicCount = (g: PastLifeGlance, cls: string) => g.heroic.find((e) => e.class === cls)?.count
const racialCount = (g: PastLifeGlance, race: string) => g.racial.find((e) => e.race === race)?.count
const iconicCount = (g: PastLifeGlance, race: string) => g.iconic.find((e) => e.race === race)?.count
const sphere = (g: PastLifeGlance, name: string) => g.epic.find((s) => s.sphere === name)
const option = (g: PastLifeGlance, kind: string) => g.nextReincarnation.options.find((o) => o.kind === kind)

describe('every past life of the game data is listed, 0 included', () => {
  test('a first-life Human Fighter: 25 classes, 16 races, 11 iconics, 18 epic past lives, all at 0', () => {
    const g = glance({ history: [[]] })
    expect(g.heroic).toHaveLength(25)
    expect(g.heroic.every((e) => e.count === 0)).toBe(true)
    // Base classes in the table's order, each followed by its archetypes.
    expect(g.heroic.slice(0, 6).map((e) => [e.class, e.baseClass])).toEqual([
      ['Alchemist', null],
      ['Artificer', null],
      ['Barbarian', null],
      ['Bard', null],
      ['Stormsinger', 'Bard'],
      ['Cleric', null],
    ])
    expect(g.heroic.find((e) => e.class === 'Sacred Fist')?.feat).toBe('Past Life: Paladin - Sacred Fist')
    // 17 races, the Wood Elf's past life being the Elf's.
    expect(g.racial).toHaveLength(16)
    expect(g.racial.map((e) => e.race)).not.toContain('Wood Elf')
    expect(g.racial.find((e) => e.race === 'Drow Elf')?.feat).toBe('Past Life: Drow')
    expect(g.iconic).toHaveLength(11)
    expect(g.iconic.find((e) => e.race === 'Bladeforged')).toEqual({
      race: 'Bladeforged',
      class: 'Paladin',
      feat: 'Past Life: Bladeforged',
      count: 0,
    })
    // Arcane and Martial have five epic past lives (15 stacks), Divine and Primal four (12).
    expect(g.epic.map((s) => [s.sphere, s.feats.length, s.max, s.count])).toEqual([
      ['Arcane', 5, 15, 0],
      ['Divine', 4, 12, 0],
      ['Martial', 5, 15, 0],
      ['Primal', 4, 12, 0],
    ])
    expect(g.totals).toEqual({ heroic: 0, racial: 0, iconic: 0, epic: 0, all: 0 })
    // 25 x 3, 16 x 3, 11 x 3, 18 x 3.
    expect(g.max).toEqual({ heroic: 75, racial: 48, iconic: 33, epic: 54, all: 210 })
    expect(g.unlisted).toBe(0)
  })
})

describe('history and snapshot: the larger per past life, capped at 3', () => {
  test('three fighter lives: the history says Fighter 3, and one more grants no more Fighter', () => {
    // Lives 1-3 were Fighters; each reincarnation granted the Fighter past life to the next.
    const g = glance({ history: [[], [heroic('Fighter', 1)], [heroic('Fighter', 2)], [heroic('Fighter', 3)]] })
    expect(heroicCount(g, 'Fighter')).toBe(3)
    expect(g.totals).toEqual({ heroic: 3, racial: 0, iconic: 0, epic: 0, all: 3 })
    expect(option(g, 'heroic')?.grants).toEqual([
      { kind: 'heroic', name: 'Fighter', sphere: null, feat: 'Past Life: Fighter', from: 3, to: 3 },
    ])
  })

  test('the snapshot says Wizard 2, the history 1: 2', () => {
    const g = glance({ history: [[], [heroic('Wizard', 1)]], snapshot: [heroic('Wizard', 2)] })
    expect(heroicCount(g, 'Wizard')).toBe(2)
  })

  test('the snapshot says Wizard 1, an earlier life 3: 3 (a short snapshot does not lower the history)', () => {
    const g = glance({ history: [[heroic('Wizard', 3)], [heroic('Wizard', 1)]], snapshot: [heroic('Wizard', 1)] })
    expect(heroicCount(g, 'Wizard')).toBe(3)
  })

  test('each past life its own larger: Monk from the history, Dwarf from the snapshot', () => {
    const g = glance({
      history: [[heroic('Monk', 2), racial('Dwarf', 1)]],
      snapshot: [heroic('Monk', 1), racial('Dwarf', 3), epic('Primal Sphere: Doubleshot', 2)],
    })
    // Monk max(2, 1) = 2; Dwarf max(1, 3) = 3; Doubleshot 2 (snapshot only): 7 in all.
    expect([heroicCount(g, 'Monk'), racialCount(g, 'Dwarf'), sphere(g, 'Primal')?.count]).toEqual([2, 3, 2])
    expect(g.totals).toEqual({ heroic: 2, racial: 3, iconic: 0, epic: 2, all: 7 })
  })

  test('entries of one past life in one list add up (2 + 2 = 4), then cap at 3; stacks 0 count 0', () => {
    const g = glance({
      snapshot: [
        heroic('Wizard', 2),
        { name: 'past life: wizard', type: 'HeroicPastLife', stacks: 2 },
        heroic('Bard', 0),
      ],
    })
    expect([heroicCount(g, 'Wizard'), heroicCount(g, 'Bard')]).toEqual([3, 0])
  })

  test('stacks above 3 in one life count 3; a missing stacks counts 1; feats of other types are not past lives', () => {
    const g = glance({
      history: [
        [
          heroic('Rogue', 5),
          { name: 'Past Life: Cleric', type: 'HeroicPastLife' },
          { name: 'Past Life: Ranger', type: 'Favor', stacks: 2 },
          { name: 'Tome of Destiny', type: 'Special', stacks: 1 },
          { name: 'Past Life: Bard' },
        ],
      ],
    })
    expect([
      heroicCount(g, 'Rogue'),
      heroicCount(g, 'Cleric'),
      heroicCount(g, 'Ranger'),
      heroicCount(g, 'Bard'),
    ]).toEqual([3, 1, 0, 0])
    expect(g.totals.all).toBe(4)
  })
})

describe('spellings', () => {
  test("other spellings count on the table's past life: the class or race the name says", () => {
    const g = glance({
      snapshot: [
        heroic('Blightcaster'), // the game's spelling of Past Life: Druid - Blight Caster
        heroic('Druid - Blight Caster'),
        racial('Drow Elf'), // the table's past life is Past Life: Drow
        racial('Wood Elf', 2), // a Wood Elf's past life is the Elf's
        racial('Bladeforged'), // an iconic race, whatever type it was sent as
        iconic('Shadar-kai', 2), // Past Life: Shadar-Kai, any case
        epic('Arcane Sphere: arcane alacrity'),
      ],
    })
    expect(g.heroic.find((e) => e.class === 'Blightcaster')).toEqual({
      class: 'Blightcaster',
      baseClass: 'Druid',
      feat: 'Past Life: Druid - Blight Caster',
      count: 2,
    })
    expect([racialCount(g, 'Drow Elf'), racialCount(g, 'Elf')]).toEqual([1, 2])
    expect([iconicCount(g, 'Bladeforged'), iconicCount(g, 'Shadar-kai')]).toEqual([1, 2])
    expect(sphere(g, 'Arcane')?.feats.find((f) => f.name === 'Arcane Alacrity')?.count).toBe(1)
    expect(g.totals).toEqual({ heroic: 2, racial: 3, iconic: 3, epic: 1, all: 9 })
    expect(g.heroic).toHaveLength(25)
  })

  test('past lives the table does not know are listed under their own names, after its own', () => {
    const g = glance({
      current: { race: 'Kobold', classes: [{ name: 'Kensei', levels: 20 }] },
      snapshot: [
        heroic('Kensei', 2),
        racial('Kobold'),
        iconic('Dragon Scion'),
        epic('Martial Sphere: Shield Mastery', 2),
        epic('Legendary Might'),
      ],
    })
    expect(g.heroic.at(-1)).toEqual({ class: 'Kensei', baseClass: null, feat: 'Past Life: Kensei', count: 2 })
    expect(g.racial.at(-1)).toEqual({ race: 'Kobold', feat: 'Past Life: Kobold', count: 1 })
    expect(g.iconic.at(-1)).toEqual({ race: 'Dragon Scion', class: null, feat: 'Past Life: Dragon Scion', count: 1 })
    // A new epic past life of a known sphere joins it (6 past lives: 18 stacks at most); one of no
    // known sphere goes under Other.
    expect(sphere(g, 'Martial')).toMatchObject({ count: 2, max: 18 })
    expect(sphere(g, 'Martial')?.feats.at(-1)).toEqual({
      name: 'Shield Mastery',
      feat: 'Past Life: Martial Sphere: Shield Mastery',
      count: 2,
    })
    expect(sphere(g, 'Other')).toEqual({
      sphere: 'Other',
      count: 1,
      max: 3,
      feats: [{ name: 'Legendary Might', feat: 'Past Life: Legendary Might', count: 1 }],
    })
    expect(g.totals).toEqual({ heroic: 2, racial: 1, iconic: 1, epic: 3, all: 7 })
    // The next reincarnation out of a Kobold Kensei: Kensei 2 -> 3, Kobold 1 -> 2.
    expect(option(g, 'heroic')?.grants.map((x) => [x.name, x.from, x.to])).toEqual([['Kensei', 2, 3]])
    expect(option(g, 'racial')?.grants.map((x) => [x.name, x.from, x.to])).toEqual([['Kobold', 1, 2]])
  })

  test(`at most ${MAX_OTHER_PAST_LIVES} unknown past lives are listed; the rest are counted in unlisted`, () => {
    const made = Array.from({ length: 60 }, (_, i) => heroic(`Made Up ${String(i).padStart(2, '0')}`))
    const g = glance({ snapshot: made })
    expect(g.heroic).toHaveLength(25 + 50)
    expect(g.heroic.at(-1)?.class).toBe('Made Up 49')
    expect(g.unlisted).toBe(10)
    expect(g.totals.heroic).toBe(50)
  })
})

describe('the next reincarnation', () => {
  test('a Human Fighter 12 / Rogue 8 with Fighter 1 and Human 3: heroic Fighter 1 -> 2, racial Human 3 -> 3', () => {
    const g = glance({
      current: {
        race: 'Human',
        classes: [
          { name: 'Fighter', levels: 12 },
          { name: 'Rogue', levels: 8 },
        ],
      },
      history: [[heroic('Fighter'), racial('Human', 3)]],
    })
    expect(g.nextReincarnation.race).toBe('Human')
    expect(g.nextReincarnation.dominantClass).toBe('Fighter')
    expect(g.nextReincarnation.options.map((o) => [o.kind, o.choice])).toEqual([
      ['heroic', false],
      ['racial', false],
      ['epic', true],
    ])
    expect(option(g, 'heroic')?.grants.map((x) => [x.feat, x.from, x.to])).toEqual([['Past Life: Fighter', 1, 2]])
    // At 3 a racial reincarnation adds nothing to the Human past life.
    expect(option(g, 'racial')?.grants.map((x) => [x.feat, x.from, x.to])).toEqual([['Past Life: Human', 3, 3]])
    // Epic: a choice among the 18 epic past lives, none taken yet.
    expect(option(g, 'epic')?.grants).toHaveLength(18)
    expect(option(g, 'epic')?.grants[0]).toEqual({
      kind: 'epic',
      name: 'Ancient Knowledge',
      sphere: 'Arcane',
      feat: 'Past Life: Arcane Sphere: Ancient Knowledge',
      from: 0,
      to: 1,
    })
  })

  test('an epic reincarnation offers only the epic past lives below 3', () => {
    const g = glance({
      snapshot: [epic('Arcane Sphere: Arcane Alacrity', 3), epic('Divine Sphere: Brace', 2)],
    })
    const grants = option(g, 'epic')?.grants ?? []
    expect(grants).toHaveLength(17)
    expect(grants.find((x) => x.name === 'Arcane Alacrity')).toBeUndefined()
    expect(grants.find((x) => x.name === 'Brace')).toMatchObject({ sphere: 'Divine', from: 2, to: 3 })
  })

  test('an iconic (Bladeforged Paladin 20): the iconic reincarnation grants the iconic and the class past life', () => {
    const g = glance({
      current: { race: 'Bladeforged', classes: [{ name: 'Paladin', levels: 20 }] },
      history: [[iconic('Bladeforged'), heroic('Paladin', 2)]],
    })
    expect(g.nextReincarnation.options.map((o) => o.kind)).toEqual(['iconic', 'epic'])
    expect(option(g, 'iconic')?.grants.map((x) => [x.kind, x.name, x.from, x.to])).toEqual([
      ['iconic', 'Bladeforged', 1, 2],
      ['heroic', 'Paladin', 2, 3],
    ])
  })

  test('an archetype grants its own past life; a Wood Elf the Elf one', () => {
    const g = glance({ current: { race: 'Wood Elf', classes: [{ name: 'Sacred Fist', levels: 20 }] } })
    expect(option(g, 'heroic')?.grants.map((x) => [x.name, x.feat])).toEqual([
      ['Sacred Fist', 'Past Life: Paladin - Sacred Fist'],
    ])
    expect(option(g, 'racial')?.grants.map((x) => [x.name, x.feat])).toEqual([['Elf', 'Past Life: Elf']])
  })

  test('a life just begun (no class levels, no race): nothing heroic or racial to grant yet', () => {
    const g = glance({ current: { race: '', classes: [] } })
    expect(g.nextReincarnation.dominantClass).toBeNull()
    expect(option(g, 'heroic')?.grants).toEqual([])
    expect(option(g, 'racial')?.grants).toEqual([])
  })
})

describe('an account', () => {
  test('each past life summed over the characters (a sum may pass 3), totals and maxima too', () => {
    const brom = glance({ snapshot: [heroic('Fighter', 3), heroic('Wizard'), heroic('Kensei')] })
    const lidda = glance({ snapshot: [heroic('Fighter', 2), racial('Dwarf'), epic('Martial Sphere: Doublestrike', 2)] })
    const account = accountPastLives([brom, lidda])
    const count = (cls: string) => account.heroic.find((e) => e.class === cls)?.count
    // Fighter 3 + 2 = 5; Wizard 1; Kensei 1 (unknown, merged by name).
    expect([count('Fighter'), count('Wizard'), count('Kensei')]).toEqual([5, 1, 1])
    expect(account.racial.find((e) => e.race === 'Dwarf')?.count).toBe(1)
    expect(account.epic.find((s) => s.sphere === 'Martial')).toMatchObject({ count: 2, max: 30 })
    expect(account.totals).toEqual({ heroic: 7, racial: 1, iconic: 0, epic: 2, all: 10 })
    // Brom's maxima (26 classes with Kensei: 78) and Lidda's (75).
    expect(account.max).toEqual({ heroic: 153, racial: 96, iconic: 66, epic: 108, all: 423 })
  })

  test('no characters: every past life at 0, nothing to hold', () => {
    const account = accountPastLives([])
    expect(account.heroic).toHaveLength(25)
    expect(account.totals.all).toBe(0)
    expect(account.max.all).toBe(0)
  })

  test("the characters' unlisted past lives add up", () => {
    const made = Array.from({ length: 52 }, (_, i) => heroic(`Made Up ${String(i).padStart(2, '0')}`))
    const account = accountPastLives([glance({ snapshot: made }), glance({ snapshot: made })])
    // Each character lists 50 and leaves 2 out; the account lists the same 50 (2 each) and
    // adds the 2 + 2 left out.
    expect(account.unlisted).toBe(4)
    expect(account.heroic.find((e) => e.class === 'Made Up 00')?.count).toBe(2)
  })
})

const exampleMonk = join(
  import.meta.dir,
  '..',
  '..',
  '..',
  '..',
  'shared',
  'fixtures',
  'builds',
  'example-monk.DDOBuild',
)
if (!existsSync(exampleMonk)) console.warn("skipped: ../shared/fixtures not found (DDO Builder's example monk)")

describe.skipIf(!existsSync(exampleMonk))("DDO Builder's example monk: every past life of its day, three times", () => {
  test('all at 3 but the Arcane Trickster (newer than the file): 72 + 48 + 33 + 54 = 207 of 210', async () => {
    const { document } = fromDdoBuilder(await Bun.file(exampleMonk).text())
    const g = glance({ snapshot: document.life?.specialFeats ?? [] })
    expect(g.heroic.filter((e) => e.count < 3).map((e) => [e.class, e.count])).toEqual([['Arcane Trickster', 0]])
    expect([...g.racial, ...g.iconic, ...g.epic.flatMap((s) => s.feats)].every((e) => e.count === 3)).toBe(true)
    expect(g.totals).toEqual({ heroic: 72, racial: 48, iconic: 33, epic: 54, all: 207 })
    expect(g.unlisted).toBe(0)
    // Its "Past Life: Disciple of the Fist" is an epic feat, not a past life: not counted.
    expect(g.heroic).toHaveLength(25)
  })
})

describe('pastLifeName: a past life named as the characters list and the picklists name its class or race', () => {
  test.each([
    ['RacialPastLife', 'Past Life: Drow', 'Drow Elf'],
    ['RacialPastLife', 'Past Life: Drow Elf', 'Drow Elf'],
    ['IconicPastLife', 'Past Life: Shadar-Kai', 'Shadar-kai'],
    ['IconicPastLife', 'Past Life: Dark Bargainer', 'Dhampir Dark Bargainer'],
    ['HeroicPastLife', 'Past Life: Druid - Blight Caster', 'Blightcaster'],
    ['HeroicPastLife', 'Past Life: Monk', 'Monk'],
    ['EpicPastLife', 'Past Life: Arcane Sphere: Arcane Alacrity', 'Arcane Alacrity (Arcane)'],
    ['HeroicPastLife', 'Past Life: Gunslinger', 'Gunslinger'],
    ['Feat', 'Power Attack', 'Power Attack'],
  ])('%s %p -> %p', (type, feat, name) => {
    expect(pastLifeName(type, feat)).toBe(name)
  })
})
