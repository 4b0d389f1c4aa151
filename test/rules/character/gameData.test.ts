// The game data table cross-checked: every picklist entry resolves in it, every name and alias
// means one row, archetypes and iconics point at real classes, and the past-life feats it grants
// are the ones DDO Builder writes (../shared/fixtures/builds/example-monk.DDOBuild).
import { describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { fromDdoBuilder } from '../../../src/modules/builds/ddobuilder'
import {
  CLASSES,
  EPIC_PAST_LIVES,
  findClass,
  findRace,
  gameNameKey,
  RACES,
} from '../../../src/rules/character/gameData'
import { heroicPastLife, racialPastLife } from '../../../src/rules/character/pastLives'
import { canonicalClass, canonicalRace, characterMeta } from '../../../src/rules/character/picklists'

describe('the picklists read the table', () => {
  test('every class and race of GET /characters/meta resolves to the row of that name', () => {
    const meta = characterMeta()
    for (const name of meta.classes) expect(findClass(name)?.name).toBe(name)
    for (const name of meta.races) expect(findRace(name)?.name).toBe(name)
    expect(meta.classes).toHaveLength(CLASSES.length)
    expect(meta.races).toHaveLength(RACES.length)
  })

  test('no name or alias means two rows', () => {
    for (const rows of [CLASSES, RACES]) {
      const keys = rows.flatMap((row) => [row.name, ...row.aliases].map(gameNameKey))
      expect(new Set(keys).size).toBe(keys.length)
    }
  })

  test.each([
    ['Blight Caster', 'Blightcaster'],
    ['blightcaster', 'Blightcaster'],
    ['Acolyte Of The Skin', 'Acolyte of the Skin'],
    ['Arcane  Trickster', 'Arcane Trickster'],
    ['Kensei', 'Kensei'],
  ])('class %p -> %p', (sent, stored) => {
    expect(canonicalClass(sent)).toBe(stored)
  })

  test.each([
    ['Drow', 'Drow Elf'],
    ['Dark Bargainer', 'Dhampir Dark Bargainer'],
    ['Shadar-Kai', 'Shadar-kai'],
    ['Scourge', 'Aasimar Scourge'],
    ['PDK', 'Purple Dragon Knight'],
    ['Kobold', 'Kobold'],
  ])('race %p -> %p', (sent, stored) => {
    expect(canonicalRace(sent)).toBe(stored)
  })
})

describe('rows that must agree with each other', () => {
  test.each([
    ['Dragon Disciple', 'Monk'],
    ['Wild Mage', 'Sorcerer'],
    ['Arcane Trickster', 'Rogue'],
    ['Blightcaster', 'Druid'],
    ['Sacred Fist', 'Paladin'],
  ])('%s is an archetype of %s', (archetype, base) => {
    expect(findClass(archetype)?.baseClass).toBe(base)
  })

  test('an archetype names a base class and has its hit points (DDO Builder agrees for every one)', () => {
    for (const row of CLASSES.filter((c) => c.baseClass !== undefined)) {
      const base = findClass(row.baseClass as string)
      expect(base?.baseClass).toBeUndefined()
      expect(row.hpPerLevel).toBe(base?.hpPerLevel as number)
    }
  })

  test('an iconic race starts in a class of the table; the iconics are the eleven of the game', () => {
    const iconics = RACES.filter((r) => r.iconicClass !== undefined)
    for (const row of iconics) expect(findClass(row.iconicClass as string)).toBeDefined()
    expect(iconics.map((r) => r.name).sort()).toEqual([
      'Aasimar Scourge',
      'Bladeforged',
      'Deep Gnome',
      'Dhampir Dark Bargainer',
      'Eladrin Chaosmancer',
      'Morninglord',
      'Purple Dragon Knight',
      'Razorclaw Shifter',
      'Shadar-kai',
      'Tabaxi Trailblazer',
      'Tiefling Scoundrel',
    ])
  })

  test('only Drow Elves pay for their modifiers in build points', () => {
    expect(RACES.filter((r) => r.buildPoints.champion !== 32).map((r) => r.name)).toEqual(['Drow Elf'])
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
if (!existsSync(exampleMonk)) console.warn("skipped: ../shared/fixtures not found (DDO Builder's past-life feats)")

describe.skipIf(!existsSync(exampleMonk))("DDO Builder's past-life feats (example-monk.DDOBuild)", () => {
  test('every heroic, racial and iconic past life in the file is one the table grants, with its type', async () => {
    const feats = fromDdoBuilder(await Bun.file(exampleMonk).text()).document.life?.specialFeats ?? []
    const granted = new Map<string, string>()
    for (const row of CLASSES) granted.set(row.pastLife, heroicPastLife(row.name).type)
    for (const row of RACES) granted.set(row.pastLife, racialPastLife(row.name).type)
    const pastLives = feats.filter((f) => ['HeroicPastLife', 'RacialPastLife', 'IconicPastLife'].includes(f.type ?? ''))
    // 24 of the 25 classes (the file predates Arcane Trickster), 16 of the 17 races (a Wood Elf
    // completes the Elf past life) and the 11 iconics.
    expect(pastLives).toHaveLength(51)
    for (const feat of pastLives) expect([feat.name, granted.get(feat.name ?? '')]).toEqual([feat.name, feat.type])
  })

  test('its epic past lives are the 18 of the table, by sphere', async () => {
    const feats = fromDdoBuilder(await Bun.file(exampleMonk).text()).document.life?.specialFeats ?? []
    const epic = feats.filter((f) => f.type === 'EpicPastLife').map((f) => f.name)
    expect(epic.sort()).toEqual(EPIC_PAST_LIVES.map((row) => row.pastLife).sort())
  })
})
