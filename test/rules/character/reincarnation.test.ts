// The kinds of reincarnation as tables: what grants say, which grants a kind refuses, what an
// upgrade can tell from a stored history, and the levels a new life starts with.
import { describe, expect, test } from 'bun:test'
import {
  grantsProblem,
  kindOfGrants,
  levelsAfter,
  nextQuestLife,
  REINCARNATION_LEVEL,
  recordedKind,
  startsQuestLife,
} from '../../../src/rules/character/reincarnation'

const heroic = (name: string, stacks = 1) => ({ name: `Past Life: ${name}`, type: 'HeroicPastLife', stacks })
const racial = (name: string, stacks = 1) => ({ name: `Past Life: ${name}`, type: 'RacialPastLife', stacks })
const iconic = (name: string, stacks = 1) => ({ name: `Past Life: ${name}`, type: 'IconicPastLife', stacks })
const epic = (name: string, stacks = 1) => ({ name: `Past Life: ${name}`, type: 'EpicPastLife', stacks })
const favor = { name: 'Favor: 400', type: 'Favor', stacks: 1 }

describe('kindOfGrants', () => {
  test.each([
    [[], null],
    [[favor], null],
    [[heroic('Monk')], 'heroic'],
    [[racial('Elf')], 'racial'],
    [[iconic('Bladeforged')], 'iconic'],
    [[iconic('Bladeforged'), heroic('Paladin')], 'iconic'],
    [[epic('Doublestrike'), favor], 'epic'],
  ])('%j -> %p', (grants, kind) => {
    expect(kindOfGrants(grants)).toEqual({ kind: kind as never })
  })

  test.each([
    [[heroic('Monk'), racial('Elf')], /never two at once/],
    [[iconic('Bladeforged'), racial('Elf')], /never two at once/],
    [[heroic('Monk'), heroic('Fighter')], /one heroic past life; this one would grant 2/],
    [[epic('Doublestrike'), epic('Doubleshot')], /one epic past life; this one would grant 2/],
    [[epic('Doublestrike'), heroic('Monk')], /An epic reincarnation grants an epic past life only/],
  ])('%j is no one reincarnation', (grants, sentence) => {
    const said = kindOfGrants(grants)
    expect('error' in said && said.error).toMatch(sentence)
  })
})

describe('grantsProblem', () => {
  test.each([
    ['heroic', [heroic('Monk')]],
    ['heroic', []],
    ['racial', [racial('Elf')]],
    ['iconic', [iconic('Bladeforged'), heroic('Paladin')]],
    ['iconic', [iconic('Bladeforged')]],
    ['epic', [epic('Doublestrike')]],
    ['epic', [favor]],
    ['lesser', []],
  ] as const)('%s with %j: fine', (kind, grants) => {
    expect(grantsProblem(kind, grants)).toBeNull()
  })

  test.each([
    ['heroic', [racial('Elf')], 'A heroic reincarnation'],
    ['racial', [heroic('Monk')], 'A racial reincarnation'],
    ['iconic', [racial('Elf')], 'An iconic reincarnation'],
    ['epic', [heroic('Monk')], 'An epic reincarnation'],
    ['lesser', [epic('Doublestrike')], 'A lesser reincarnation grants no past life'],
  ] as const)('%s with %j: refused', (kind, grants, start) => {
    expect(grantsProblem(kind, grants)).toStartWith(start)
  })
})

describe('recordedKind: what a stored history says', () => {
  test.each([
    // one more stack of one epic past life, nothing else: an epic reincarnation
    [[heroic('Monk', 3)], [heroic('Monk', 3), epic('Doublestrike')], 'epic'],
    [[epic('Doublestrike', 1)], [epic('Doublestrike', 2), favor], 'epic'],
    // a heroic past life more: a true one
    [[], [heroic('Monk')], null],
    // nothing more (a lesser reincarnation, or a true one at 3 stacks): taken as true
    [[heroic('Monk', 3)], [heroic('Monk', 3)], null],
    // two epic past lives more, or two stacks: a snapshot synced since, not one reincarnation
    [[], [epic('Doublestrike'), epic('Doubleshot')], null],
    [[], [epic('Doublestrike', 2)], null],
    [[], [epic('Doublestrike'), heroic('Monk')], null],
  ])('%j -> %j: %p', (finished, next, kind) => {
    expect(recordedKind(finished, next)).toBe(kind as never)
  })
})

describe('quest lives and levels', () => {
  test('true kinds and none start a quest life; epic and lesser keep it', () => {
    expect([null, 'heroic', 'racial', 'iconic', 'epic', 'lesser'].map((k) => startsQuestLife(k as never))).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
    ])
    expect(nextQuestLife('epic', { lifeIndex: 4, questLife: 2 })).toBe(2)
    expect(nextQuestLife('heroic', { lifeIndex: 4, questLife: 2 })).toBe(5)
  })

  test('levels: none after a true one, heroic only after an epic one, all after a lesser one', () => {
    const wizard = [{ name: 'Wizard', levels: 20 }]
    expect(levelsAfter('racial', wizard, 10)).toEqual({ classes: [], epicLevels: 0 })
    expect(levelsAfter(null, wizard, 10)).toEqual({ classes: [], epicLevels: 0 })
    expect(levelsAfter('epic', wizard, 10)).toEqual({ classes: wizard, epicLevels: 0 })
    expect(levelsAfter('lesser', wizard, 10)).toEqual({ classes: wizard, epicLevels: 10 })
  })

  test('the level each kind needs', () => {
    expect(REINCARNATION_LEVEL).toEqual({ heroic: 20, racial: 20, iconic: 30, epic: 30, lesser: 1 })
  })
})
