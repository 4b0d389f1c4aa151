// What differs between a character's live snapshot (what it is in game) and its planned build:
// the build page's "next things to do in game". A pure comparison of two build documents,
// area by area; areas the live snapshot has not read yet (`meta.incomplete`) are not compared
// (their emptiness in the snapshot says nothing).

import { ABILITIES, ABILITY_INCREASE_LEVELS, ABILITY_NAMES, type Ability } from '../character/gameData'
import { isPastLife } from '../character/pastLives'
import { canonicalRace } from '../character/picklists'
import type { ClassLevels } from '../character/shapes'
import { count, withArticle } from '../words'
import { abilityKey, scoreForSpend } from './breakdown'
import type { BuildDocument } from './buildDocument'
import { classLabel, summarizeLevels } from './buildLevels'

/** The areas compared, in the order the page lists them. */
export const DIFF_AREAS = [
  'life',
  'levels',
  'abilities',
  'tomes',
  'pastLives',
  'feats',
  'skills',
  'enhancements',
  'destiny',
  'spells',
  'reaper',
] as const
export type DiffArea = (typeof DIFF_AREAS)[number]

/** The `meta.incomplete` domains of the contract, each the area it leaves unread. */
const INCOMPLETE_AREAS: Readonly<Record<string, DiffArea>> = {
  feats: 'feats',
  skills: 'skills',
  enhancements: 'enhancements',
  destiny: 'destiny',
  spells: 'spells',
  tomes: 'tomes',
  reaper: 'reaper',
}

export interface BuildDifference {
  area: DiffArea
  /** What differs: "Level", "Strength tome", "Kensei tree". */
  subject: string
  live: string
  planned: string
  /** The next thing to do in game, when the plan is ahead of the character; else null. */
  todo: string | null
}

export interface BuildDiff {
  differences: BuildDifference[]
  /** Areas not compared because the live snapshot has not read them yet. */
  notRead: DiffArea[]
}

type Build = NonNullable<BuildDocument['build']>
type Trees = NonNullable<Build['enhancementTrees']>

const signed = (n: number) => (n > 0 ? `+${n}` : String(n))
const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase()

/** The keys of both sides, each once, sorted. */
const keysOfBoth = (a: Iterable<string>, b: Iterable<string>) =>
  [...new Set([...a, ...b])].sort((p, q) => p.localeCompare(q))

/** Counts by key (a Map, or a record through `recordCounts`); a missing key counts 0. */
interface Counts<K extends string> {
  get(key: K): number | undefined
}

const recordCounts = <K extends string>(record: Partial<Record<K, number>>): Counts<K> => ({
  get: (key) => record[key],
})

/**
 * One difference per key whose counts differ between the live snapshot and the plan, in the
 * order of `keys`; `describe` words it.
 */
function countDifferences<K extends string>(
  keys: Iterable<K>,
  live: Counts<K>,
  planned: Counts<K>,
  describe: (key: K, live: number, planned: number) => BuildDifference,
): BuildDifference[] {
  const out: BuildDifference[] = []
  for (const key of keys) {
    const x = live.get(key) ?? 0
    const y = planned.get(key) ?? 0
    if (x !== y) out.push(describe(key, x, y))
  }
  return out
}

/** The live snapshot's unread areas (unknown domain names are ignored). */
export function unreadAreas(live: BuildDocument): DiffArea[] {
  const incomplete = live.meta?.incomplete ?? []
  const areas = new Set(incomplete.map((d) => INCOMPLETE_AREAS[d.trim().toLowerCase()]).filter((a) => a !== undefined))
  return DIFF_AREAS.filter((a) => areas.has(a))
}

/** Class of each level entry (null where the entry names no class: Epic, Unknown, missing). */
function levelClasses(build: Build | undefined, level: number): (string | null)[] {
  return (build?.levels ?? []).slice(0, level).map((entry) => classLabel(entry.class) ?? null)
}

/** "Levels 1–4" or "Level 3". */
const levelSpan = (from: number, to: number) => (from === to ? `Level ${from}` : `Levels ${from}–${to}`)

function lifeDifferences(live: BuildDocument, planned: BuildDocument): BuildDifference[] {
  const out: BuildDifference[] = []
  const fields = [
    ['name', 'Name'],
    ['race', 'Race'],
    ['alignment', 'Alignment'],
  ] as const
  // A race by the table's spelling (DDO Builder writes "Drow" for the game's "Drow Elf").
  const spelt = (key: (typeof fields)[number][0], text: string) => (key === 'race' ? canonicalRace(text) : text)
  for (const [key, subject] of fields) {
    const a = spelt(key, live.life?.[key]?.trim() ?? '')
    const b = spelt(key, planned.life?.[key]?.trim() ?? '')
    if (a === '' || b === '' || same(a, b)) continue
    const todo =
      key === 'race' ? `Reincarnate as ${withArticle(b)}` : key === 'alignment' ? `Change alignment to ${b}` : null
    out.push({ area: 'life', subject, live: a, planned: b, todo })
  }
  return out
}

function levelDifferences(
  live: BuildDocument,
  planned: BuildDocument,
  liveLevel: number,
  plannedLevel: number,
  featsRead: boolean,
): BuildDifference[] {
  const out: BuildDifference[] = []
  const liveClasses = levelClasses(live.build, liveLevel)
  const plannedClasses = levelClasses(planned.build, plannedLevel)

  if (plannedLevel > liveLevel) {
    const next = liveLevel + 1
    const nextClass = plannedClasses[next - 1]
    const steps: string[] = []
    if (nextClass) steps.push(`take level ${next} in ${nextClass}`)
    const bump = ABILITY_INCREASE_LEVELS.includes(next as (typeof ABILITY_INCREASE_LEVELS)[number])
      ? abilityKey(planned.build?.levelAbilityBumps?.[String(next)])
      : undefined
    if (bump) steps.push(`raise ${ABILITY_NAMES[bump]}`)
    const feats = featsRead ? (planned.build?.levels?.[next - 1]?.feats ?? []).map((f) => f.name ?? '') : []
    const named = feats.filter((f) => f !== '')
    if (named.length > 0) steps.push(`train ${named.join(', ')}`)
    const togo = count(plannedLevel - liveLevel, 'level')
    out.push({
      area: 'levels',
      subject: 'Level',
      live: String(liveLevel),
      planned: String(plannedLevel),
      todo: `Level up (${togo} to go)${steps.length > 0 ? `: ${steps.join(', ')}` : ''}`,
    })
  } else if (liveLevel > plannedLevel && plannedLevel > 0) {
    out.push({ area: 'levels', subject: 'Level', live: String(liveLevel), planned: String(plannedLevel), todo: null })
  }

  // Levels both have reached whose class differs, in runs of the same pair.
  const common = Math.min(liveClasses.length, plannedClasses.length)
  let i = 0
  while (i < common) {
    const a = liveClasses[i]
    const b = plannedClasses[i]
    let j = i + 1
    while (j < common && liveClasses[j] === a && plannedClasses[j] === b) j++
    if (a && b && !same(a, b)) {
      out.push({
        area: 'levels',
        subject: `${levelSpan(i + 1, j)} class`,
        live: a,
        planned: b,
        todo: `Rebuild ${levelSpan(i + 1, j).toLowerCase()} as ${b} (lesser reincarnation)`,
      })
    }
    i = j
  }
  return out
}

function abilityDifferences(
  live: BuildDocument,
  planned: BuildDocument,
  liveLevel: number,
  plannedLevel: number,
): BuildDifference[] {
  const out: BuildDifference[] = []
  const a = live.build?.abilitySpend
  const b = planned.build?.abilitySpend
  if (a && b) {
    const points = (spend: number) => {
      const score = scoreForSpend(spend)
      return `${count(spend, 'point')}${score === undefined ? '' : ` (${score})`}`
    }
    const spent = (ability: Ability, x: number, y: number): BuildDifference => ({
      area: 'abilities',
      subject: `${ABILITY_NAMES[ability]} point buy`,
      live: points(x),
      planned: points(y),
      todo: 'Rebuild the point buy (lesser reincarnation)',
    })
    out.push(...countDifferences(ABILITIES, recordCounts(a), recordCounts(b), spent))
  }
  // Ability increases both have reached (the next one is part of "Level up").
  const reached = Math.min(liveLevel, plannedLevel)
  for (const at of ABILITY_INCREASE_LEVELS) {
    if (at > reached) break
    const x = abilityKey(live.build?.levelAbilityBumps?.[String(at)])
    const y = abilityKey(planned.build?.levelAbilityBumps?.[String(at)])
    if (!x || !y || x === y) continue
    out.push({
      area: 'abilities',
      subject: `Level ${at} ability increase`,
      live: ABILITY_NAMES[x],
      planned: ABILITY_NAMES[y],
      todo: `Rebuild the level ${at} increase as ${ABILITY_NAMES[y]} (lesser reincarnation)`,
    })
  }
  return out
}

function tomeDifferences(live: BuildDocument, planned: BuildDocument): BuildDifference[] {
  const a = live.tomes ?? {}
  const b = planned.tomes ?? {}
  const tome = (name: string, x: number, y: number): BuildDifference => ({
    area: 'tomes',
    subject: `${name} tome`,
    live: signed(x),
    planned: signed(y),
    todo: y > x ? `Read a ${signed(y)} ${name} tome` : null,
  })
  const skillsA = a.skills ?? {}
  const skillsB = b.skills ?? {}
  return [
    ...countDifferences(ABILITIES, recordCounts<Ability>(a), recordCounts<Ability>(b), (ability, x, y) =>
      tome(ABILITY_NAMES[ability], x, y),
    ),
    ...countDifferences(
      keysOfBoth(Object.keys(skillsA), Object.keys(skillsB)),
      recordCounts(skillsA),
      recordCounts(skillsB),
      tome,
    ),
  ]
}

function pastLifeStacks(document: BuildDocument): Map<string, { name: string; stacks: number }> {
  const stacks = new Map<string, { name: string; stacks: number }>()
  for (const feat of document.life?.specialFeats ?? []) {
    const name = feat.name?.trim() ?? ''
    if (name === '' || !isPastLife(feat.type ?? '')) continue
    const key = `${feat.type}\u0000${name.toLowerCase()}`
    const entry = stacks.get(key) ?? { name, stacks: 0 }
    entry.stacks += feat.stacks ?? 1
    stacks.set(key, entry)
  }
  return stacks
}

function pastLifeDifferences(live: BuildDocument, planned: BuildDocument): BuildDifference[] {
  const a = pastLifeStacks(live)
  const b = pastLifeStacks(planned)
  const stacks = (key: string, x: number, y: number): BuildDifference => {
    const name = b.get(key)?.name ?? a.get(key)?.name ?? ''
    return {
      area: 'pastLives',
      subject: name,
      live: count(x, 'stack'),
      planned: count(y, 'stack'),
      todo: y > x ? `Earn ${count(y - x, 'more stack', 'more stacks')} of ${name}` : null,
    }
  }
  const stacksOf = (lives: typeof a): Counts<string> => ({ get: (key) => lives.get(key)?.stacks })
  const out = countDifferences(new Set([...a.keys(), ...b.keys()]), stacksOf(a), stacksOf(b), stacks)
  return out.sort((p, q) => p.subject.localeCompare(q.subject))
}

/** Names in `a` that `b` lacks, counting repeats (a multiset difference). */
function missing(a: readonly string[], b: readonly string[]): string[] {
  const left = new Map<string, number>()
  for (const x of b) left.set(x.toLowerCase(), (left.get(x.toLowerCase()) ?? 0) + 1)
  const out: string[] = []
  for (const x of a) {
    const n = left.get(x.toLowerCase()) ?? 0
    if (n > 0) left.set(x.toLowerCase(), n - 1)
    else out.push(x)
  }
  return out
}

function featDifferences(live: BuildDocument, planned: BuildDocument, reached: number): BuildDifference[] {
  const out: BuildDifference[] = []
  const names = (build: Build | undefined, i: number) =>
    (build?.levels?.[i]?.feats ?? []).map((f) => f.name?.trim() ?? '').filter((n) => n !== '')
  for (let i = 0; i < reached; i++) {
    const a = names(live.build, i)
    const b = names(planned.build, i)
    const toTrain = missing(b, a)
    const extra = missing(a, b)
    if (toTrain.length === 0 && extra.length === 0) continue
    out.push({
      area: 'feats',
      subject: `Level ${i + 1} feats`,
      live: extra.length > 0 ? extra.join(', ') : '—',
      planned: toTrain.length > 0 ? toTrain.join(', ') : '—',
      todo: toTrain.length > 0 ? `Swap in ${toTrain.join(', ')} (feat swap)` : null,
    })
  }
  return out
}

function skillPoints(build: Build | undefined, level: number): Map<string, number> {
  const points = new Map<string, number>()
  for (const entry of (build?.levels ?? []).slice(0, level)) {
    for (const skill of entry.skills ?? []) points.set(skill, (points.get(skill) ?? 0) + 1)
  }
  return points
}

function skillDifferences(live: BuildDocument, planned: BuildDocument, reached: number): BuildDifference[] {
  const a = skillPoints(live.build, reached)
  const b = skillPoints(planned.build, reached)
  const points = (skill: string, x: number, y: number): BuildDifference => ({
    area: 'skills',
    subject: `${skill} skill`,
    live: count(x, 'point'),
    planned: count(y, 'point'),
    todo: y > x ? `Put ${count(y - x, 'more point', 'more points')} into ${skill}` : null,
  })
  return countDifferences(keysOfBoth(a.keys(), b.keys()), a, b, points)
}

interface TreeRanks {
  total: number
  byEnhancement: Map<string, number>
}

/** Trained ranks per tree (the document has no action-point costs, so ranks are what is compared). */
export function treeRanks(spend: readonly unknown[] | undefined): Map<string, TreeRanks> {
  const trees = new Map<string, TreeRanks>()
  for (const tree of spend ?? []) {
    if (typeof tree !== 'object' || tree === null) continue
    const name = 'treeName' in tree && typeof tree.treeName === 'string' ? tree.treeName.trim() : ''
    if (name === '') continue
    const entry = trees.get(name) ?? { total: 0, byEnhancement: new Map() }
    const trained = 'trained' in tree && Array.isArray(tree.trained) ? (tree.trained as unknown[]) : []
    for (const item of trained) {
      if (typeof item !== 'object' || item === null) continue
      const enhancement =
        'enhancementName' in item && typeof item.enhancementName === 'string' ? item.enhancementName : ''
      const selection = 'selection' in item && typeof item.selection === 'string' ? item.selection : ''
      const ranks = 'ranks' in item && typeof item.ranks === 'number' ? item.ranks : 1
      const label = selection ? `${enhancement} (${selection})` : enhancement
      entry.total += ranks
      entry.byEnhancement.set(label, (entry.byEnhancement.get(label) ?? 0) + ranks)
    }
    trees.set(name, entry)
  }
  return trees
}

/** At most this many enhancement names in one sentence; the rest are counted. */
const NAMES_SHOWN = 4

function treeDifferences(
  area: 'enhancements' | 'destiny' | 'reaper',
  a: readonly unknown[] | undefined,
  b: readonly unknown[] | undefined,
): BuildDifference[] {
  const liveTrees = treeRanks(a)
  const plannedTrees = treeRanks(b)
  const out: BuildDifference[] = []
  for (const tree of keysOfBoth(liveTrees.keys(), plannedTrees.keys())) {
    const x = liveTrees.get(tree)
    const y = plannedTrees.get(tree)
    const toTrain: string[] = []
    const toDrop: string[] = []
    for (const [name, ranks] of y?.byEnhancement ?? []) {
      const have = x?.byEnhancement.get(name) ?? 0
      if (ranks > have) toTrain.push(ranks - have > 1 ? `${name} ×${ranks - have}` : name)
    }
    for (const [name, ranks] of x?.byEnhancement ?? []) {
      if (ranks > (y?.byEnhancement.get(name) ?? 0)) toDrop.push(name)
    }
    if (toTrain.length === 0 && toDrop.length === 0) continue
    const shown = toTrain.slice(0, NAMES_SHOWN).join(', ')
    const more = toTrain.length > NAMES_SHOWN ? ` and ${toTrain.length - NAMES_SHOWN} more` : ''
    const steps: string[] = []
    if (toDrop.length > 0) steps.push(`reset ${count(toDrop.length, 'enhancement')} not in the plan`)
    if (toTrain.length > 0) steps.push(`train ${shown}${more}`)
    const todo = steps.join(', then ')
    out.push({
      area,
      subject: `${tree} tree`,
      live: count(x?.total ?? 0, 'rank'),
      planned: count(y?.total ?? 0, 'rank'),
      todo: todo.charAt(0).toUpperCase() + todo.slice(1),
    })
  }
  return out
}

function spellDifferences(live: BuildDocument, planned: BuildDocument): BuildDifference[] {
  const key = (s: { class?: string; level?: number }) => `${s.class ?? ''} level ${s.level ?? '?'}`
  const group = (spells: Build['trainedSpells']) => {
    const by = new Map<string, string[]>()
    for (const s of spells ?? []) {
      if (!s.name) continue
      by.set(key(s), [...(by.get(key(s)) ?? []), s.name])
    }
    return by
  }
  const a = group(live.build?.trainedSpells)
  const b = group(planned.build?.trainedSpells)
  const out: BuildDifference[] = []
  for (const slot of keysOfBoth(a.keys(), b.keys())) {
    const toTrain = missing(b.get(slot) ?? [], a.get(slot) ?? [])
    const extra = missing(a.get(slot) ?? [], b.get(slot) ?? [])
    if (toTrain.length === 0 && extra.length === 0) continue
    out.push({
      area: 'spells',
      subject: `${slot} spells`,
      live: extra.length > 0 ? extra.join(', ') : '—',
      planned: toTrain.length > 0 ? toTrain.join(', ') : '—',
      todo: toTrain.length > 0 ? `Train ${toTrain.join(', ')}` : null,
    })
  }
  return out
}

/** Every difference between the live snapshot and the plan, area by area. */
export function diffBuilds(live: BuildDocument, planned: BuildDocument): BuildDiff {
  const notRead = unreadAreas(live)
  const read = (area: DiffArea) => !notRead.includes(area)
  const liveLevel = summarizeLevels(live.build).level ?? 0
  const plannedLevel = summarizeLevels(planned.build).level ?? 0
  const reached = Math.min(liveLevel, plannedLevel)
  const trees = (t: Trees | undefined) => t?.spend
  const differences = [
    ...lifeDifferences(live, planned),
    ...levelDifferences(live, planned, liveLevel, plannedLevel, read('feats')),
    ...abilityDifferences(live, planned, liveLevel, plannedLevel),
    ...(read('tomes') ? tomeDifferences(live, planned) : []),
    ...pastLifeDifferences(live, planned),
    ...(read('feats') ? featDifferences(live, planned, reached) : []),
    ...(read('skills') ? skillDifferences(live, planned, reached) : []),
    ...(read('enhancements')
      ? treeDifferences('enhancements', trees(live.build?.enhancementTrees), trees(planned.build?.enhancementTrees))
      : []),
    ...(read('destiny')
      ? treeDifferences('destiny', trees(live.build?.destinyTrees), trees(planned.build?.destinyTrees))
      : []),
    ...(read('spells') ? spellDifferences(live, planned) : []),
    ...(read('reaper') ? treeDifferences('reaper', live.build?.reaper?.spend, planned.build?.reaper?.spend) : []),
  ]
  return { differences, notRead }
}

/** The character as its profile has it (the characters list's facts), for diffWithProfile. */
export interface ProfileFacts {
  race: string
  alignment: string
  classes: readonly ClassLevels[]
  /** Heroic and epic levels together. */
  level: number
}

/**
 * What differs between the plan and the character when there is no live snapshot yet (a plan
 * imported before the game plugin ever sent one): the race and alignment, the level, and how the
 * levels both reached split between classes, from the character's profile. Everything else needs
 * the snapshot, and is listed as not read.
 */
export function diffWithProfile(profile: ProfileFacts, planned: BuildDocument): BuildDiff {
  const asLive: BuildDocument = { life: { race: profile.race, alignment: profile.alignment } }
  const plannedLevel = summarizeLevels(planned.build).level ?? 0
  const differences = [
    ...lifeDifferences(asLive, planned),
    ...levelDifferences(asLive, planned, profile.level, plannedLevel, false),
  ]
  // The split of the heroic levels both have: counts per class (the profile has no order).
  const heroic = profile.classes.reduce((sum, c) => sum + c.levels, 0)
  const plannedClasses = levelClasses(planned.build, Math.min(heroic, plannedLevel))
  if (heroic > 0 && plannedClasses.length === heroic && plannedClasses.every((c) => c !== null)) {
    const mine = new Map(profile.classes.map((c) => [c.name.toLowerCase(), c]))
    const theirs = new Map<string, { name: string; levels: number }>()
    for (const name of plannedClasses as string[]) {
      const entry = theirs.get(name.toLowerCase()) ?? { name, levels: 0 }
      entry.levels++
      theirs.set(name.toLowerCase(), entry)
    }
    const keys = [...new Set([...mine.keys(), ...theirs.keys()])]
    const nameOf = (key: string) => theirs.get(key)?.name ?? mine.get(key)?.name ?? key
    for (const key of keys.sort((a, b) => nameOf(a).localeCompare(nameOf(b)))) {
      const a = mine.get(key)?.levels ?? 0
      const b = theirs.get(key)?.levels ?? 0
      if (a === b) continue
      differences.push({
        area: 'levels',
        subject: `${nameOf(key)} levels`,
        live: String(a),
        planned: String(b),
        todo: b > a ? `Rebuild with ${count(b, `${nameOf(key)} level`)} (lesser reincarnation)` : null,
      })
    }
  }
  return { differences, notRead: DIFF_AREAS.filter((area) => area !== 'life' && area !== 'levels') }
}
