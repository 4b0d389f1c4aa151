// Table tests of the tracker's row rules: domain rule 2 (completion of a remake, Unknown
// matches every remake of the name) and each filter (level band, version flags, patrons,
// packs, search, hide completed).
import { describe, expect, test } from 'bun:test'
import type { Difficulty, Setting } from '../../../src/rules/quests/completion'
import { levelRange } from '../../../src/rules/quests/levelBand'
import {
  completionsFor,
  filterRows,
  indexCompletions,
  isCompleted,
  type LoggedCompletion,
  questCounts,
  rowsByName,
  type TrackerFilters,
  type TrackerRow,
  tiersByName,
} from '../../../src/rules/quests/tracker'

const row = (name: string, difficulty: Difficulty, level: number, extra: Partial<TrackerRow> = {}): TrackerRow => ({
  name,
  difficulty,
  level,
  soloXP: 100,
  normalXP: 200,
  hardXP: 210,
  eliteXP: 220,
  duration: 'Short',
  pack: 'Free to Play',
  patron: 'The Coin Lords',
  favor: 4,
  ...extra,
})

const done = (name: string, difficulty: Difficulty, setting: Setting): LoggedCompletion => ({
  name,
  difficulty,
  setting,
})

const CATALOG: TrackerRow[] = [
  row('The Pit', 'Heroic', 5),
  row('Devil Assault', 'Heroic', 17, { pack: 'Devil Battlefield', patron: 'The Gatekeepers' }),
  row('Devil Assault', 'Epic', 27, { pack: 'Devil Battlefield', patron: 'The Gatekeepers' }),
  row('Tempest Spine', 'Heroic', 13, { patron: 'The Twelve' }),
  row('Tempest Spine', 'Legendary', 32, { patron: 'The Twelve' }),
  row('Ghost of Perdition', 'Epic', 25, { pack: 'Menace of the Underdark', patron: '' }),
]

const names = (rows: TrackerRow[]) => rows.map((r) => `${r.name}/${r.difficulty}`)

const ALL: TrackerFilters = {
  levelBand: 255,
  levels: levelRange(1, 'any'),
  versionFilter: { heroic: 'any', epic: 'any', legendary: 'any' },
  excludedPatrons: [],
  packState: {},
  search: '',
  hideCompleted: false,
}

describe('isCompleted: any setting of the remake, or the name with tier Unknown (rule 2)', () => {
  const cases: [string, LoggedCompletion[], TrackerRow, boolean][] = [
    ['nothing logged', [], CATALOG[0], false],
    ['same remake, elite', [done('The Pit', 'Heroic', 'elite')], CATALOG[0], true],
    ['same remake, casual counts too', [done('The Pit', 'Heroic', 'casual')], CATALOG[0], true],
    ['setting unknown still counts', [done('The Pit', 'Heroic', 'unknown')], CATALOG[0], true],
    ['other tier of the name does not', [done('Devil Assault', 'Epic', 'elite')], CATALOG[1], false],
    ['that tier itself does', [done('Devil Assault', 'Epic', 'elite')], CATALOG[2], true],
    ['Unknown matches the heroic remake', [done('Devil Assault', 'Unknown', 'hard')], CATALOG[1], true],
    ['Unknown matches the epic remake', [done('Devil Assault', 'Unknown', 'hard')], CATALOG[2], true],
    ['another name never', [done('The Pit', 'Unknown', 'elite')], CATALOG[1], false],
    ['names are exact', [done('the pit', 'Heroic', 'elite')], CATALOG[0], false],
  ]
  for (const [what, completions, target, expected] of cases) {
    test(what, () => expect(isCompleted(target, indexCompletions(completions))).toBe(expected))
  }

  test('completionsFor lists the remake own tier and the Unknown ones, nothing else', () => {
    const index = indexCompletions([
      done('Devil Assault', 'Heroic', 'elite'),
      done('Devil Assault', 'Epic', 'normal'),
      done('Devil Assault', 'Unknown', 'reaper'),
    ])
    expect(completionsFor(CATALOG[1], index).map((c) => c.setting)).toEqual(['elite', 'reaper'])
    expect(completionsFor(CATALOG[2], index).map((c) => c.setting)).toEqual(['normal', 'reaper'])
  })
})

describe('filterRows', () => {
  const none = indexCompletions([])
  const cases: [string, Partial<TrackerFilters>, string[]][] = [
    ['no filter shows everything', {}, names(CATALOG)],
    [
      'the band: level 20 on elite shows base levels 17 to 22',
      { levelBand: 0, levels: levelRange(20, 'elite') },
      ['Devil Assault/Heroic'],
    ],
    [
      'the band: level 25 on normal, 24 to 27, epic content open',
      { levelBand: 0, levels: levelRange(25, 'normal') },
      ['Devil Assault/Epic', 'Ghost of Perdition/Epic'],
    ],
    ['the band at level 1 on casual: 1 to 3', { levelBand: 0, levels: levelRange(1, 'casual') }, []],
    [
      'a range up to 33 above level 1: every heroic row, no epic content',
      { levelBand: 0, levels: levelRange(1, 'casual', { levelsAbove: 33 }) },
      ['The Pit/Heroic', 'Devil Assault/Heroic', 'Tempest Spine/Heroic'],
    ],
    [
      'a range 30 below level 30: everything up to 32',
      { levelBand: 0, levels: levelRange(30, 'elite', { levelsBelow: 30 }) },
      names(CATALOG),
    ],
    ['levelBand 255 ignores the band', { levelBand: 255, levels: levelRange(30, 'elite') }, names(CATALOG)],
    [
      'heroic no hides heroic rows only',
      { versionFilter: { heroic: 'no', epic: 'any', legendary: 'any' } },
      ['Devil Assault/Epic', 'Tempest Spine/Legendary', 'Ghost of Perdition/Epic'],
    ],
    [
      'epic yes keeps every tier of names that have an epic remake',
      { versionFilter: { heroic: 'any', epic: 'yes', legendary: 'any' } },
      ['Devil Assault/Heroic', 'Devil Assault/Epic', 'Ghost of Perdition/Epic'],
    ],
    [
      'heroic yes and legendary yes: names with both',
      { versionFilter: { heroic: 'yes', epic: 'any', legendary: 'yes' } },
      ['Tempest Spine/Heroic', 'Tempest Spine/Legendary'],
    ],
    [
      'epic yes with heroic no: the epic remakes of such names',
      { versionFilter: { heroic: 'no', epic: 'yes', legendary: 'any' } },
      ['Devil Assault/Epic', 'Ghost of Perdition/Epic'],
    ],
    [
      'excluded patrons (non-strings ignored)',
      { excludedPatrons: ['The Coin Lords', 7, null] },
      [
        'Devil Assault/Heroic',
        'Devil Assault/Epic',
        'Tempest Spine/Heroic',
        'Tempest Spine/Legendary',
        'Ghost of Perdition/Epic',
      ],
    ],
    [
      'the empty patron can be excluded',
      { excludedPatrons: ['', 'The Gatekeepers'] },
      ['The Pit/Heroic', 'Tempest Spine/Heroic', 'Tempest Spine/Legendary'],
    ],
    [
      'packState false hides the pack; true or anything else shows it',
      { packState: { 'Free to Play': false, 'Devil Battlefield': true, 'Menace of the Underdark': 0 } },
      ['Devil Assault/Heroic', 'Devil Assault/Epic', 'Ghost of Perdition/Epic'],
    ],
    ['search: name substring, any case', { search: '  devil ' }, ['Devil Assault/Heroic', 'Devil Assault/Epic']],
    ['search: pack', { search: 'underdark' }, ['Ghost of Perdition/Epic']],
    ['search: patron', { search: 'twelve' }, ['Tempest Spine/Heroic', 'Tempest Spine/Legendary']],
    ['search: nothing matches', { search: 'zzz' }, []],
  ]
  for (const [what, filters, expected] of cases) {
    test(what, () => expect(names(filterRows(CATALOG, { ...ALL, ...filters }, none))).toEqual(expected))
  }

  test('search: apostrophes, accents and punctuation do not matter, as in the catalog search', () => {
    const rows = [row("Secret of the Slavers' Stockade", 'Heroic', 6), row('Misery’s Peak', 'Heroic', 7)]
    const found = (search: string) => names(filterRows(rows, { ...ALL, search }, none))
    expect(found('Slavers Stockade')).toEqual(["Secret of the Slavers' Stockade/Heroic"])
    expect(found("slavers' stockade")).toEqual(["Secret of the Slavers' Stockade/Heroic"])
    expect(found("Misery's peak")).toEqual(['Misery’s Peak/Heroic'])
    expect(found('miserys-peak')).toEqual(['Misery’s Peak/Heroic'])
  })

  test('hide completed: complete remakes go, Unknown hides every remake of the name', () => {
    const index = indexCompletions([done('The Pit', 'Heroic', 'casual'), done('Tempest Spine', 'Unknown', 'elite')])
    expect(names(filterRows(CATALOG, { ...ALL, hideCompleted: true }, index))).toEqual([
      'Devil Assault/Heroic',
      'Devil Assault/Epic',
      'Ghost of Perdition/Epic',
    ])
    expect(names(filterRows(CATALOG, { ...ALL, hideCompleted: false }, index))).toEqual(names(CATALOG))
  })

  test.each([
    // [Play on, settings logged for The Pit, hidden?]
    ['elite', ['hard'], false],
    ['elite', ['elite'], true],
    ['elite', ['reaper'], true],
    ['reaper', ['elite'], true],
    ['hard', ['casual', 'normal'], false],
    ['hard', ['elite'], true],
    ['casual', ['casual'], true],
    ['any', ['casual'], true],
    ['elite', ['unknown'], false],
  ] as const)('hide completed while playing on %s: done on %p is hidden: %p', (playOn, settings, hidden) => {
    const index = indexCompletions(settings.map((setting) => done('The Pit', 'Heroic', setting)))
    const shown = names(filterRows(CATALOG, { ...ALL, hideCompleted: true, playOn }, index))
    expect(shown.includes('The Pit/Heroic')).toBe(!hidden)
  })

  test('filters combine', () => {
    const index = indexCompletions([done('Devil Assault', 'Epic', 'elite')])
    const rows = filterRows(
      CATALOG,
      {
        ...ALL,
        levelBand: 0,
        levels: levelRange(30, 'elite', { levelsBelow: 15, levelsAbove: 4 }),
        search: 'e',
        hideCompleted: true,
        excludedPatrons: ['The Twelve', ''],
      },
      index,
    )
    expect(names(rows)).toEqual(['Devil Assault/Heroic'])
  })
})

test('rowsByName and tiersByName group the remakes of a name', () => {
  expect(
    rowsByName(CATALOG)
      .get('Devil Assault')
      ?.map((r) => r.difficulty),
  ).toEqual(['Heroic', 'Epic'])
  expect([...(tiersByName(CATALOG).get('Tempest Spine') ?? [])]).toEqual(['Heroic', 'Legendary'])
})

describe('questCounts', () => {
  test('quests are names: the tiers of one quest count once, done when any shown tier is done', () => {
    const index = indexCompletions([done('Devil Assault', 'Epic', 'elite'), done('Tempest Spine', 'Unknown', 'hard')])
    const count = (shown: TrackerRow[]) => questCounts(shown, (r) => isCompleted(r, index))
    expect(count(CATALOG)).toEqual({ done: 2, shown: 4 })
    // Only the heroic Devil Assault shown: its epic run is not among the rows shown.
    expect(count(CATALOG.filter((r) => r.difficulty === 'Heroic'))).toEqual({ done: 1, shown: 3 })
    expect(count([])).toEqual({ done: 0, shown: 0 })
  })
})
