// The tracker's model follows each change of the completions (src/web/tracker/tally.ts) instead
// of counting the whole history again: after any sequence of upserts, removals, ticks, unticks,
// bonus changes, re-reads and going back to an earlier list, what it shows equals what the game
// rules count from scratch from the same completions (the current life's: a change to another
// life changes nothing). Sequences are generated from seeds, so a failure names its seed.
import { describe, expect, test } from 'bun:test'
import { signal } from '@preact/signals'
import type { ChangeDelta, ProgressHead } from '../../../src/modules/events/feed'
import type { PlayOn } from '../../../src/rules/character/levels'
import { CHALLENGE_SETTINGS, REMAKE_TIERS } from '../../../src/rules/quests/completion'
import { favorTotals } from '../../../src/rules/quests/favor'
import { completionsFor, indexCompletions, isCompleted, isDoneAt, rowsByName } from '../../../src/rules/quests/tracker'
import { xpTotal } from '../../../src/rules/quests/xp'
import type { Completion, Progress, QuestRow } from '../../../src/web/api'
import { applyChange, edited, withAdded, withRemoved } from '../../../src/web/tracker/changes'
import { type Row, toRows, trackerModel } from '../../../src/web/tracker/model'

/** mulberry32: a small seeded generator, so a sequence can be replayed from its seed. */
function generator(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const below = (n: number) => Math.floor(next() * n)
  const pick = <T>(items: readonly T[]): T => items[below(items.length)] as T
  return { next, below, pick }
}
type Random = ReturnType<typeof generator>

const quest = (
  name: string,
  difficulty: 'Heroic' | 'Epic' | 'Legendary',
  favor: number | null,
  patron: string,
  xp: number | null,
): QuestRow => ({
  name,
  difficulty,
  level: difficulty === 'Heroic' ? 5 : 25,
  soloXP: xp === null ? null : Math.round(xp / 2),
  normalXP: xp,
  hardXP: xp === null ? null : xp + 100,
  eliteXP: xp === null ? null : xp + 250,
  duration: 'Short',
  pack: name === 'Gwylan' ? 'Menace' : 'Free',
  patron,
  favor,
  questId: null,
  groupSize: null,
  freeToVip: null,
  times: [],
})

/** A small catalog with what the rules treat apart: several tiers of a name, unknown favor and XP, a name whose tiers have different patrons. */
const CATALOG = toRows([
  quest('The Pit', 'Heroic', 3, 'The Coin Lords', 500),
  quest('The Pit', 'Epic', 6, 'The Coin Lords', 9000),
  quest('Tangleroot', 'Heroic', 5, 'The Gatekeepers', null),
  quest('Delera', 'Heroic', null, 'The Silver Flame', 700),
  quest('Delera', 'Epic', 4, 'The Silver Flame', 8000),
  quest('Delera', 'Legendary', 8, 'The Silver Flame', 40000),
  quest('Gwylan', 'Heroic', 2, 'The Coin Lords', 300),
  quest('Gwylan', 'Epic', 7, 'The Twelve', 6000),
])
const NAMES = ['The Pit', 'Tangleroot', 'Delera', 'Gwylan', 'Not In The Catalog']
const BONUSES = [{}, { vip: true }, { vip: true, dailyBonus: true }, { xpElixir: 15 }]
const OPTIONALS = [{}, { firstTime: true }, { conquest: true, ransack: true }]

function completion(random: Random): Completion {
  return {
    name: random.pick(NAMES),
    difficulty: random.pick(REMAKE_TIERS),
    setting: random.pick(CHALLENGE_SETTINGS),
    completedAt: new Date(Date.UTC(2026, 0, 1) + random.below(1e9)).toISOString(),
    durationSeconds: null,
    xpEarned: random.next() < 0.6 ? null : random.below(50_000),
    reaperXpEarned: null,
    reaperSkulls: random.next() < 0.5 ? null : 1 + random.below(10),
  }
}

function startingProgress(random: Random, count: number): Progress {
  const completions = Array.from({ length: count }, () => completion(random))
  return {
    character: { id: 1, name: 'Tordek', targetDifficulty: 'elite' },
    minLevel: 1,
    characterLevel: 10,
    levelFrom: 7,
    levelTo: 12,
    targetDifficulty: 'elite',
    levelBand: 255,
    levelsBelow: null,
    levelsAbove: null,
    excludedPatrons: [],
    versionFilter: { heroic: 'any', epic: 'any', legendary: 'any' },
    xpBoosts: {},
    optionalPursuit: {},
    packState: {},
    questNotes: {},
    completions,
    completedQuests: [...new Set(completions.map((c) => c.name))].sort(),
    life: { index: 2, current: true, count: 2, questLife: 2, questLives: [1, 2] },
  }
}

const headOf = ({ completions: _c, completedQuests: _q, life: _l, ...head }: Progress): ProgressHead => head

/** Ticking and unticking as the store does (store.ts toggleSetting). */
const tick = (p: Progress, added: Completion): Progress => withAdded(p, [added])
function untick(p: Progress, row: Pick<Row, 'name' | 'difficulty'>, setting: string): Progress {
  const removed = p.completions.filter(
    (c) =>
      c.name === row.name && c.setting === setting && (c.difficulty === row.difficulty || c.difficulty === 'Unknown'),
  )
  return withRemoved(p, removed)
}

type Step = 'edit' | 'recount'

/** An event's change as the store applies it (with the model's index), checked against a scan of the list. */
function applied(p: Progress, delta: ChangeDelta, byName: ReadonlyMap<string, readonly Completion[]>): Progress {
  const next = applyChange(p, delta, byName)
  expect(next).toEqual(applyChange(p, delta))
  return next
}

/** One random change of the progress; 'recount' where the model cannot follow it. */
function change(
  random: Random,
  p: Progress,
  history: readonly Progress[],
  byName: ReadonlyMap<string, readonly Completion[]>,
): [Progress, Step] {
  const roll = random.below(100)
  if (roll < 25) {
    const life = random.next() < 0.9 ? p.life.index : p.life.index - 1
    return [
      applyChange(p, {
        kind: 'upsert',
        life,
        completion: completion(random),
        position: random.below(p.completions.length + 1),
      }),
      'edit',
    ]
  }
  if (roll < 45) {
    const keys = Array.from({ length: 1 + random.below(3) }, () => {
      const c = p.completions.length > 0 && random.next() < 0.7 ? random.pick(p.completions) : completion(random)
      return { name: c.name, difficulty: c.difficulty, setting: c.setting }
    })
    return [applied(p, { kind: 'remove', life: p.life.index, removed: keys }, byName), 'edit']
  }
  if (roll < 60) return [tick(p, completion(random)), 'edit']
  if (roll < 72) return [untick(p, random.pick(CATALOG), random.pick(CHALLENGE_SETTINGS)), 'edit']
  if (roll < 82) {
    const head = { ...headOf(p), xpBoosts: { ...random.pick(BONUSES) }, optionalPursuit: { ...random.pick(OPTIONALS) } }
    return [applyChange(p, { kind: 'head', head }), 'edit']
  }
  // A re-read (the same completions as new objects), or back to an earlier list (an undo).
  if (roll < 92) return [{ ...p, completions: p.completions.map((c) => ({ ...c })) }, 'recount']
  return [random.pick(history), 'recount']
}

/** What the page shows, counted from scratch by the game rules, in a form to compare. */
function fromScratch(p: Progress, hideCompleted: boolean) {
  const index = indexCompletions(p.completions)
  const byName = rowsByName(CATALOG)
  const logs = CATALOG.flatMap((row) => {
    const found = completionsFor(row, index)
    if (found.length === 0) return []
    const own = found.filter((c) => c.difficulty !== 'Unknown').map((c) => c.setting)
    const viaUnknown = found.filter((c) => c.difficulty === 'Unknown').map((c) => c.setting)
    // The reaper tick's skulls: the most of the remake's reaper completions (issue 41 section 3).
    const counts = found.filter((c) => c.setting === 'reaper' && c.reaperSkulls !== null).map((c) => c.reaperSkulls)
    const skulls = counts.length === 0 ? null : Math.max(...(counts as number[]))
    return [{ key: row.key, own: [...new Set(own)].sort(), viaUnknown: [...new Set(viaUnknown)].sort(), skulls }]
  })
  const favor = favorTotals(CATALOG, index)
  // Hidden when done at the Play on setting or harder (any setting for Play on any).
  const playOn = p.targetDifficulty as PlayOn
  const done = (row: (typeof CATALOG)[number]) =>
    playOn === 'any' ? isCompleted(row, index) : isDoneAt(row, index, playOn)
  const shown = CATALOG.filter((row) => !hideCompleted || !done(row))
  return {
    index: indexShape(p, index),
    logs: logs.sort((a, b) => a.key.localeCompare(b.key)),
    favor: { earned: favor.earned, possible: favor.possible, byPatron: [...favor.byPatron] },
    xp: xpTotal(p.completions, byName, p.xpBoosts, p.optionalPursuit),
    shown: shown.map((row) => row.key).sort(),
    // Quests (names) done among those shown, as the characters list counts "Quests done".
    done: new Set(shown.filter((row) => isCompleted(row, index)).map((row) => row.name)).size,
  }
}

/** Each name's completions as their places in the list: the same objects, in any order. */
function indexShape(p: Progress, index: ReadonlyMap<string, readonly Completion[]>) {
  return [...index]
    .map(([name, group]) => [name, group.map((c) => p.completions.indexOf(c)).sort((a, b) => a - b)] as const)
    .sort(([a], [b]) => a.localeCompare(b))
}

function open(p: Progress) {
  const progress = signal(p)
  const hideCompleted = signal(false)
  const model = trackerModel({
    rows: signal(CATALOG),
    progress,
    search: signal(''),
    hideCompleted,
    sort: signal({ key: 'level', descending: false }),
  })
  return { progress, hideCompleted, model }
}

function shown(m: ReturnType<typeof open>) {
  const { model, progress, hideCompleted } = m
  const favor = model.favor.value
  return {
    index: indexShape(progress.value, model.index.value),
    logs: [...model.logs.value]
      .map(([key, log]) => ({
        key,
        own: [...log.own].sort(),
        viaUnknown: [...log.viaUnknown].sort(),
        skulls: log.skulls,
      }))
      .sort((a, b) => a.key.localeCompare(b.key)),
    favor: { earned: favor.earned, possible: favor.possible, byPatron: [...favor.byPatron] },
    xp: model.xp.value,
    shown: model.visible.value.map((row) => row.key).sort(),
    done: model.counts.value.done,
    hideCompleted: hideCompleted.value,
  }
}

describe("the tracker's model after any sequence of changes equals one counted from scratch", () => {
  for (let seed = 1; seed <= 60; seed++) {
    test(`seed ${seed}`, () => {
      const random = generator(seed)
      const m = open(startingProgress(random, random.below(40)))
      const history: Progress[] = [m.progress.value]
      let before = m.model.tally.value
      for (let check = 0; check < 40; check++) {
        // One to three changes between two looks: the model follows several edits at once.
        let followable = true
        for (let n = 1 + random.below(3); n > 0; n--) {
          const [next, step] = change(random, m.progress.value, history, m.model.index.value)
          if (step === 'recount') followable = false
          m.progress.value = next
          history.push(next)
        }
        if (random.next() < 0.2) m.hideCompleted.value = !m.hideCompleted.value
        const { hideCompleted, ...seen } = shown(m)
        expect({ seed, check, ...seen }).toEqual({ seed, check, ...fromScratch(m.progress.value, hideCompleted) })
        const tally = m.model.tally.value
        // What could be followed was: no recount of the history.
        if (followable)
          expect({ seed, check, made: tally === before ? 'unchanged' : tally.made }).not.toEqual({
            seed,
            check,
            made: 'counted',
          })
        before = tally
      }
    })
  }
})

describe('what the model counts again', () => {
  const start = () => {
    const random = generator(7)
    const m = open(startingProgress(random, 2000))
    return { random, m, first: m.model.tally.value }
  }

  test('a tick, its event and an untick are followed from the tally before: the history is counted once', () => {
    const { m, first } = start()
    expect(first.made).toBe('counted')
    const added: Completion = {
      name: 'Gwylan',
      difficulty: 'Epic',
      setting: 'casual',
      completedAt: '2026-11-25T00:00:00.000Z',
      durationSeconds: null,
      xpEarned: null,
      reaperXpEarned: null,
      reaperSkulls: null,
    }
    m.progress.value = tick(m.progress.value, added)
    expect(m.model.tally.value.made).toBe('followed')
    const stored = { ...added, xpEarned: 1234 }
    m.progress.value = applyChange(m.progress.value, { kind: 'upsert', life: 2, completion: stored, position: 0 })
    expect(m.model.tally.value.made).toBe('followed')
    expect(m.model.index.value.get('Gwylan')?.[0]).toBe(stored)
    m.progress.value = untick(m.progress.value, { name: 'Gwylan', difficulty: 'Epic' }, 'casual')
    expect(m.model.tally.value.made).toBe('followed')
    const { hideCompleted, ...seen } = shown(m)
    expect(seen).toEqual(fromScratch(m.progress.value, hideCompleted))
  })

  test('a change of the XP bonuses counts XP again and keeps the rows, favor and index as they were', () => {
    const { m, first } = start()
    const head = { ...headOf(m.progress.value), xpBoosts: { vip: true } }
    m.progress.value = applyChange(m.progress.value, { kind: 'head', head })
    const after = m.model.tally.value
    expect(after.xp).toEqual(xpTotal(m.progress.value.completions, rowsByName(CATALOG), { vip: true }, {}))
    expect(after.xp).not.toEqual(first.xp)
    expect([after.index, after.logs, after.favor]).toEqual([first.index, first.logs, first.favor])
    expect(after.index === first.index && after.logs === first.logs && after.favor === first.favor).toBe(true)
    // The same bonuses again, as new objects (every head event brings its own): nothing to do.
    m.progress.value = applyChange(m.progress.value, { kind: 'head', head: { ...head, xpBoosts: { vip: true } } })
    expect(m.model.tally.value).toBe(after)
  })

  test('a re-read, and an edit removing what was never counted, are counted whole', () => {
    const { m, random } = start()
    m.progress.value = { ...m.progress.value, completions: m.progress.value.completions.map((c) => ({ ...c })) }
    expect(m.model.tally.value.made).toBe('counted')
    m.progress.value = tick(m.progress.value, completion(random))
    expect(m.model.tally.value.made).toBe('followed')
    const stranger = completion(random)
    m.progress.value = edited(m.progress.value, [...m.progress.value.completions], [stranger], [])
    expect(m.model.tally.value.made).toBe('counted')
    const { hideCompleted, ...seen } = shown(m)
    expect(seen).toEqual(fromScratch(m.progress.value, hideCompleted))
  })
})
