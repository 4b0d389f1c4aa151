// The grid's compact form read back is the completions it was made from, as the tracker's rules
// see them (done at every Play on setting, favor), and the grid's rows are the tracker's filters
// with each character's band: tables of cases, and random characters against the rules themselves.
import { describe, expect, test } from 'bun:test'
import { PLAY_ON, type PlayOn } from '../../../src/rules/character/levels'
import type { Difficulty, Setting } from '../../../src/rules/quests/completion'
import { favorTotals } from '../../../src/rules/quests/favor'
import {
  bestSetting,
  CELL_ALPHABET,
  cellLetter,
  cellMask,
  cellsIndex,
  characterCells,
  DEFAULT_GRID_VIEW,
  doneAt,
  type GridColumn,
  type GridView,
  gridCell,
  gridRowFilter,
  inGridBand,
  orderColumns,
} from '../../../src/rules/quests/grid'
import { indexCompletions, type TrackerRow, tiersByName } from '../../../src/rules/quests/tracker'

const SETTINGS: Setting[] = ['unknown', 'casual', 'normal', 'hard', 'elite', 'reaper']
const TIERS: Difficulty[] = ['Heroic', 'Epic', 'Legendary', 'Unknown']

const row = (name: string, difficulty: Difficulty, level: number, extra: Partial<TrackerRow> = {}): TrackerRow => ({
  name,
  difficulty,
  level,
  soloXP: null,
  normalXP: 100,
  hardXP: 110,
  eliteXP: 120,
  duration: 'Short',
  pack: 'Free to Play',
  patron: 'The Coin Lords',
  favor: 4,
  ...extra,
})

const rows: TrackerRow[] = [
  row('Bell Tower', 'Heroic', 6),
  row('Crypt', 'Heroic', 9, { pack: 'Harbor Tales' }),
  row('Crypt', 'Epic', 27, { pack: 'Harbor Tales', favor: 6 }),
  row('Shadow Gate', 'Heroic', 18, { patron: 'The Twelve' }),
  row('Shadow Gate', 'Legendary', 32, { patron: 'The Twelve' }),
]

describe('the letters', () => {
  test('64 letters, one per mask; "0" is none', () => {
    expect(new Set(CELL_ALPHABET).size).toBe(64)
    for (let mask = 0; mask < 64; mask++) expect(cellMask(cellLetter(mask))).toBe(mask)
    expect(cellLetter(0)).toBe('0')
    expect(cellMask(undefined)).toBe(0)
    expect(cellMask('!')).toBe(0)
  })
})

describe('characterCells and cellsIndex', () => {
  test('a table: own tiers per row, tierless per name, names the catalog lacks left out', () => {
    const cells = characterCells(rows, [
      { name: 'Crypt', difficulty: 'Heroic', setting: 'elite' },
      { name: 'Crypt', difficulty: 'Heroic', setting: 'casual' },
      { name: 'Crypt', difficulty: 'Unknown', setting: 'reaper' },
      { name: 'Shadow Gate', difficulty: 'Legendary', setting: 'unknown' },
      { name: 'Not in the catalog', difficulty: 'Heroic', setting: 'elite' },
      { name: 'Not in the catalog', difficulty: 'Unknown', setting: 'elite' },
    ])
    // Crypt Heroic: casual (2) + elite (16) = 18, "i"; Shadow Gate Legendary: unknown (1).
    expect(cells).toEqual({ done: '0i001', unknownTier: { Crypt: 'w' } })
  })

  test('read back, the tracker’s rules answer as they do over the completions, for 300 random characters', () => {
    let seed = 11
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648
      return seed / 2147483648
    }
    const names = [...new Set(rows.map((r) => r.name)), 'Not in the catalog']
    for (let c = 0; c < 300; c++) {
      const completions = Array.from({ length: Math.floor(next() * 12) }, () => ({
        name: names[Math.floor(next() * names.length)] as string,
        difficulty: TIERS[Math.floor(next() * TIERS.length)] as Difficulty,
        setting: SETTINGS[Math.floor(next() * SETTINGS.length)] as Setting,
      }))
      const real = indexCompletions(completions)
      const read = cellsIndex(rows, characterCells(rows, completions))
      for (const r of rows) {
        for (const playOn of PLAY_ON) expect(doneAt(r, read, playOn)).toBe(doneAt(r, real, playOn))
      }
      expect(favorTotals(rows, read)).toEqual(favorTotals(rows, real))
    }
  })
})

describe('a cell', () => {
  const column = (level: number, completions: { name: string; difficulty: Difficulty; setting: Setting }[]) =>
    ({ level, index: indexCompletions(completions) }) satisfies GridColumn
  const bell = rows[0] as TrackerRow

  test.each([
    // done on, completions, done, best
    ['elite', [['Heroic', 'hard']], false, 'hard'],
    ['elite', [['Heroic', 'reaper']], true, 'reaper'],
    ['reaper', [['Heroic', 'elite']], true, 'elite'],
    [
      'hard',
      [
        ['Heroic', 'elite'],
        ['Heroic', 'casual'],
      ],
      true,
      'elite',
    ],
    ['any', [['Heroic', 'unknown']], true, 'unknown'],
    ['casual', [['Heroic', 'unknown']], false, 'unknown'],
    ['elite', [['Unknown', 'elite']], true, 'elite'],
    ['elite', [['Epic', 'elite']], false, null],
    ['any', [], false, null],
  ] as [PlayOn, [Difficulty, Setting][], boolean, Setting | null][])(
    'on %s with %j: done %p, best %p',
    (playOn, done, isDone, best) => {
      const cell = gridCell(
        bell,
        column(
          6,
          done.map(([difficulty, setting]) => ({ name: 'Bell Tower', difficulty, setting })),
        ),
        playOn,
      )
      expect({ done: cell.done, best: cell.best }).toEqual({ done: isDone, best })
    },
  )

  test('only through a tierless completion: marked so', () => {
    expect(
      gridCell(bell, column(6, [{ name: 'Bell Tower', difficulty: 'Unknown', setting: 'elite' }]), 'elite').viaUnknown,
    ).toBe(true)
    expect(
      gridCell(bell, column(6, [{ name: 'Bell Tower', difficulty: 'Heroic', setting: 'elite' }]), 'elite').viaUnknown,
    ).toBe(false)
  })

  test('bestSetting: the hardest, reaper above elite, unknown last', () => {
    expect(bestSetting([{ setting: 'elite' }, { setting: 'reaper' }])).toBe('reaper')
    expect(bestSetting([{ setting: 'unknown' }, { setting: 'casual' }])).toBe('casual')
    expect(bestSetting([])).toBeNull()
  })
})

describe("each character's band", () => {
  test.each([
    // quest level, character level, play on, in band (minLevel: level - 1 - offset)
    [6, 9, 'elite', true], // 9 - 1 - 2 = 6
    [5, 9, 'elite', false],
    [7, 9, 'normal', false], // 9 - 1 - 0 = 8
    [8, 9, 'normal', true],
    [1, 1, 'casual', true], // never below 1
    [11, 9, 'elite', true], // the top: two levels above the character (levelBand.ts)
    [12, 9, 'elite', false],
    [30, 9, 'elite', false], // a level-30 raid is no level-9 character's quest (issue 42 section 3)
  ] as [number, number, PlayOn, boolean][])('quest %d, character %d on %s: %p', (quest, level, playOn, inBand) => {
    expect(inGridBand(quest, 'Heroic', level, playOn)).toBe(inBand)
  })

  test('Epic and Legendary remakes are in the band from level 20 only', () => {
    expect(inGridBand(10, 'Epic', 9, 'elite')).toBe(false)
    expect(inGridBand(20, 'Epic', 20, 'elite')).toBe(true)
  })
})

describe('the rows the grid shows', () => {
  const view = (change: Partial<GridView> = {}): GridView => ({ ...DEFAULT_GRID_VIEW, ...change })
  const tiers = tiersByName(rows)
  const shown = (v: GridView, columns: GridColumn[], search = '') =>
    rows.filter(gridRowFilter(v, search, columns, tiers)).map((r) => `${r.name} ${r.difficulty}`)
  const low: GridColumn = {
    level: 9,
    index: indexCompletions([{ name: 'Bell Tower', difficulty: 'Heroic', setting: 'elite' }]),
  }
  const high: GridColumn = { level: 30, index: indexCompletions([]) }

  test("the Full XP band: rows in at least one shown character's band", () => {
    // Level 9: up to two levels above it, and no Epic or Legendary remake before level 20.
    expect(shown(view(), [low])).toEqual(['Bell Tower Heroic', 'Crypt Heroic'])
    expect(shown(view(), [low, high])).toEqual([
      'Bell Tower Heroic',
      'Crypt Heroic',
      'Crypt Epic',
      'Shadow Gate Legendary',
    ])
    expect(shown(view(), [high])).toEqual(['Crypt Epic', 'Shadow Gate Legendary'])
    expect(shown(view(), [])).toEqual([])
    expect(shown(view({ levelBand: 255 }), [high])).toHaveLength(rows.length)
  })

  test('the tracker’s filters: tiers, patrons, packs, the search', () => {
    const any = view({ levelBand: 255 })
    expect(shown({ ...any, versionFilter: { heroic: 'no', epic: 'any', legendary: 'any' } }, [low])).toEqual([
      'Crypt Epic',
      'Shadow Gate Legendary',
    ])
    expect(shown({ ...any, versionFilter: { heroic: 'any', epic: 'yes', legendary: 'any' } }, [low])).toEqual([
      'Crypt Heroic',
      'Crypt Epic',
    ])
    expect(shown({ ...any, excludedPatrons: ['The Twelve'] }, [low])).toEqual([
      'Bell Tower Heroic',
      'Crypt Heroic',
      'Crypt Epic',
    ])
    expect(shown({ ...any, hiddenPacks: ['Harbor Tales', 'Free to Play'] }, [low])).toEqual([])
    expect(shown(any, [low], 'CRYPT')).toEqual(['Crypt Heroic', 'Crypt Epic'])
  })

  test('done by all: hidden when every shown character that can run it (in its band) has done it at Play on', () => {
    const other: GridColumn = {
      level: 9,
      index: indexCompletions([{ name: 'Bell Tower', difficulty: 'Heroic', setting: 'hard' }]),
    }
    const both = view({ hideDoneByAll: true })
    // Other did Bell Tower on hard only: still needed on elite.
    expect(shown(both, [low, other])).toContain('Bell Tower Heroic')
    expect(shown({ ...both, playOn: 'hard' }, [low, other])).not.toContain('Bell Tower Heroic')
    // The level 30 character is out of Bell Tower's band: done by all who can run it.
    expect(shown(both, [low, high])).not.toContain('Bell Tower Heroic')
    // With every level, the level 30 one counts too.
    expect(shown({ ...both, levelBand: 255 }, [low, high])).toContain('Bell Tower Heroic')
  })
})

describe('the columns', () => {
  const characters = [{ id: 3 }, { id: 5 }, { id: 8 }, { id: 9 }]
  test("the view's order first, the rest after in the order given; hidden ones marked", () => {
    expect(orderColumns(characters, { order: [8, 42, 3], hidden: [5] })).toEqual([
      { character: { id: 8 }, hidden: false },
      { character: { id: 3 }, hidden: false },
      { character: { id: 5 }, hidden: true },
      { character: { id: 9 }, hidden: false },
    ])
    expect(orderColumns(characters, { order: [], hidden: [] }).map((c) => c.character.id)).toEqual([3, 5, 8, 9])
  })
})
