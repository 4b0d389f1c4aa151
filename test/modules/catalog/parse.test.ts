// Reading catalog sources: cell rules as tables of cases, both formats on our own small
// fixtures, and the real wiki layout (../shared) row for row against its JSON.
import { describe, expect, test } from 'bun:test'
import {
  CatalogParseError,
  decodeEntities,
  parseCatalog,
  parseCount,
  parseLevel,
  type QuestRow,
} from '../../../src/modules/catalog/parse'
import {
  NAMES_HTML,
  NAMES_JSON,
  readRows,
  SHARED_718,
  SHARED_HTML,
  SMALL_HTML,
  SMALL_JSON,
  sharedExists,
} from '../../catalogFixtures'

describe('cells', () => {
  test.each([
    ['2,748', 2748],
    ['12,143', 12143],
    ['1,320[1]', 1320],
    [' 975 ', 975],
    ['12 143', 12143],
    ['0', 0],
    ['', null],
    ['?', null],
    ['-', null],
  ] as const)('count %p -> %p', (cell, expected) => {
    expect(parseCount(cell)).toBe(expected)
  })

  test.each([
    ['7/27', 'Epic', 27],
    ['-/27', 'Epic', 27],
    ['20/20', 'Epic', 20],
    ['27', 'Epic', 27],
    ['8', 'Heroic', 8],
    ['31', 'Legendary', 31],
    ['', 'Heroic', null],
    ['-', 'Heroic', null],
    ['7/-', 'Epic', null],
  ] as const)('level %p in the %s table -> %p', (cell, tier, expected) => {
    expect(parseLevel(cell, tier)).toBe(expected)
  })

  test.each([
    ['Delera&#x27;s Tomb', "Delera's Tomb"],
    ['Crypt Keepers &amp; Co.', 'Crypt Keepers & Co.'],
    ['a&#39;b&nbsp;c', "a'b\u00a0c"],
    ['&lt;&gt;&quot;', '<>"'],
    ['&unknown; stays', '&unknown; stays'],
    // Any named entity of HTML, not only a handful, and numeric references in both bases.
    ['Caf&eacute;', 'Caf\u00e9'],
    ['R&#233;sum&#xE9;', 'R\u00e9sum\u00e9'],
    ['&Aacute;&ouml;&szlig;&hellip;&mdash;&euro;', '\u00c1\u00f6\u00df\u2026\u2014\u20ac'],
    ['&#x1F409;', '\u{1F409}'],
  ] as const)('entities %p -> %p', (text, expected) => {
    expect(decodeEntities(text)).toBe(expected)
  })
})

describe('our small fixtures', () => {
  test('the HTML page and the JSON file give the same rows, in the same order', async () => {
    const html = parseCatalog(await Bun.file(SMALL_HTML).text())
    const json = parseCatalog(await Bun.file(SMALL_JSON).text())
    expect(html.format).toBe('html')
    expect(json.format).toBe('json')
    expect(html.skipped).toEqual([])
    expect(json.rows).toHaveLength(12)
    expect(html.rows).toEqual(json.rows)
  })

  test('cells and rows whose end tags are left out (valid HTML) read the same', async () => {
    const page = await Bun.file(SMALL_HTML).text()
    const terse = page.replaceAll('</td>', '').replaceAll('</tr>', '').replaceAll('</th>', '')
    expect(terse).not.toContain('</td>')
    expect(parseCatalog(terse).rows).toEqual(parseCatalog(await Bun.file(SMALL_JSON).text()).rows)
  })

  test('Epic levels, separators, empty cells, entities and footnotes are read from the page', async () => {
    const { rows } = parseCatalog(await Bun.file(SMALL_HTML).text())
    const find = (name: string, difficulty: string) =>
      rows.find((r) => r.name === name && r.difficulty === difficulty) as QuestRow
    expect(find('Crypt', 'Epic').level).toBe(27) // "-/27"
    expect(find('Shadow Gate', 'Epic').level).toBe(24) // "18/24"
    expect(find('Crypt', 'Epic').eliteXP).toBe(21948) // "21,948"
    expect(find('Bell Tower', 'Heroic').eliteXP).toBe(1320) // "1,320<sup>[1]</sup>"
    expect(find("Delera's Rest", 'Heroic')).toMatchObject({ soloXP: null, patron: '', favor: null })
    expect(find('Sewer Run', 'Heroic').pack).toBe('Crypt Keepers & Co.')
    // The same name in three tiers stays three rows.
    expect(rows.filter((r) => r.name === 'Crypt').map((r) => r.difficulty)).toEqual(['Heroic', 'Epic', 'Legendary'])
  })
})

describe('the names fixture (entities and wiki disambiguators)', () => {
  test('the HTML page decodes &eacute;, &amp;, &#233; and &#xE9; and equals its JSON twin', async () => {
    const html = parseCatalog(await Bun.file(NAMES_HTML).text())
    expect(html.skipped).toEqual([])
    expect(html.rows).toEqual(parseCatalog(await Bun.file(NAMES_JSON).text()).rows)
    const cafe = html.rows.find((r) => r.level === 3)
    // Written in the page as "Caf&eacute; R&#233;sum&#xE9; &amp; Co." and "Sant&eacute; &amp; Fils".
    expect(cafe).toMatchObject({ name: 'Caf\u00e9 R\u00e9sum\u00e9 & Co.', pack: 'Sant\u00e9 & Fils' })
    expect(html.rows.map((r) => `${r.name}/${r.difficulty}`)).toContain('Ghost of a Chance (epic)/Epic')
  })
})

describe('telling formats apart and refusing what is not a catalog', () => {
  test('JSON is recognised by content, also wrapped as {count, quests} and with a BOM', () => {
    const row = { name: 'X', difficulty: 'Heroic', level: 1 }
    expect(parseCatalog(JSON.stringify([row])).rows[0]?.name).toBe('X')
    expect(parseCatalog(`\uFEFF  ${JSON.stringify({ count: 1, quests: [row] })}`).rows).toHaveLength(1)
  })

  test.each([
    ['plain text', 'Service unavailable', 'neither JSON nor an HTML page'],
    ['broken JSON', '[{"name": "X",', 'does not parse'],
    ['a JSON object', '{"error": "rate limited"}', 'not an array'],
    ['a page without the tables', '<html><body><h1>Wiki maintenance</h1></body></html>', 'no quest tables'],
  ])('%s is refused', (_, text, message) => {
    expect(() => parseCatalog(text)).toThrow(CatalogParseError)
    expect(() => parseCatalog(text)).toThrow(message)
  })

  test('unreadable and repeated rows are left out and listed; the others are kept', () => {
    const parsed = parseCatalog(
      JSON.stringify([
        { name: 'Good', difficulty: 'Heroic', level: 3, soloXP: '1,200', favor: 2 },
        { name: 'Good', difficulty: 'Epic', level: 23 },
        { name: '', difficulty: 'Heroic', level: 3 },
        { name: 'No tier', difficulty: 'Unknown', level: 3 },
        { name: 'No level', difficulty: 'Heroic' },
        { name: 'Good', difficulty: 'heroic', level: 4 },
        'not a row',
      ]),
    )
    expect(parsed.rows.map((r) => `${r.name}/${r.difficulty}/${r.level}`)).toEqual(['Good/Heroic/3', 'Good/Epic/23'])
    expect(parsed.rows[0]).toMatchObject({ soloXP: 1200, normalXP: null, duration: '', pack: '', favor: 2 })
    expect(parsed.skipped).toHaveLength(5)
    expect(parsed.skipped.join('\n')).toContain('row 6 repeats "Good" (Heroic)')
  })

  test('hidden sort keys, footnotes, line breaks and void elements in cells', () => {
    const cells = [
      '<span style="display:none">0005</span><a href="/page/X">X</a>',
      '3<sup>[2]</sup>',
      '1,000<img style="display:none" src="icon.png">',
      '2,000',
      '',
      '4,000',
      'Very<br>long',
      'Pack',
      'Patron',
      '1',
    ]
    const page = `<h2>Heroic</h2><table><tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr></table>`
    expect(parseCatalog(page).rows).toEqual([
      {
        name: 'X',
        difficulty: 'Heroic',
        level: 3,
        soloXP: 1000,
        normalXP: 2000,
        hardXP: null,
        eliteXP: 4000,
        duration: 'Very long',
        pack: 'Pack',
        patron: 'Patron',
        favor: 1,
        questId: null,
        groupSize: null,
        freeToVip: null,
      },
    ])
  })

  test('tables under a non-tier section are not read; without tier headings, three tables go in order', () => {
    const row = (name: string, level: string) =>
      `<tr>${[name, level, '1', '2', '3', '4', 'Short', 'Pack', 'Patron', '1'].map((c) => `<td>${c}</td>`).join('')}</tr>`
    const withSeeAlso = `<h2>Heroic</h2><table>${row('A', '1')}</table><h2>See also</h2><table>${row('B', '2')}</table>`
    expect(parseCatalog(withSeeAlso).rows.map((r) => r.name)).toEqual(['A'])
    const noHeadings = `<div><table>${row('H', '2')}</table><table>${row('E', '2/22')}</table><table>${row('L', '31')}</table></div>`
    expect(parseCatalog(noHeadings).rows.map((r) => [r.name, r.difficulty, r.level])).toEqual([
      ['H', 'Heroic', 2],
      ['E', 'Epic', 22],
      ['L', 'Legendary', 31],
    ])
    const short = `<h2>Epic</h2><table>${row('A', '3/23')}<tr><td>only</td><td>two</td></tr></table>`
    expect(parseCatalog(short).skipped).toEqual(['Epic table row 2 has 2 cells, not 10'])
  })
})

describe.skipIf(!sharedExists)('the real catalog (../shared/fixtures)', () => {
  test('every one of the 718 rows of the wiki page equals the JSON, in order', async () => {
    const html = parseCatalog(await Bun.file(SHARED_HTML).text())
    const json = await readRows(SHARED_718)
    expect(html.skipped).toEqual([])
    expect(html.rows).toHaveLength(718)
    for (let i = 0; i < json.length; i++) expect(html.rows[i]).toEqual(json[i] as QuestRow)
    const tiers = (rows: QuestRow[], tier: string) => rows.filter((r) => r.difficulty === tier).length
    expect([tiers(html.rows, 'Heroic'), tiers(html.rows, 'Epic'), tiers(html.rows, 'Legendary')]).toEqual([
      446, 119, 153,
    ])
  })
})
