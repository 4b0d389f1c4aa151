// Turns a catalog source's text into validated QuestRows. The formats, told apart by content:
// the HTML of the DDO wiki page "Quests by level and XP" (three tables, Heroic, Epic and
// Legendary, of 10 cells a row); DDO Audit's quest list (JSON objects with `heroic_normal_cr`,
// `epic_normal_cr` and `xp`); another Quest Tracker's public catalog (`GET /api/catalog`); and a
// JSON array of QuestRow. The HTML is read with Bun's HTMLRewriter (a real streaming parser);
// regular expressions only ever see a cell's text. Pure: no I/O.
import { decodeHTML } from 'entities'
import { GROUP_SIZES, type GroupSize, MAX_HEROIC_QUEST_LEVEL, tierOfEpicLevel } from '../../rules/quests/catalogFacts'
import type { QuestTier } from '../../rules/quests/questTiers'
import type { TrackerRow } from '../../rules/quests/tracker'

export const TIERS: readonly QuestTier[] = ['Heroic', 'Epic', 'Legendary']

/** What only some sources say of a remake (null: this source does not say). */
export interface CatalogFacts {
  /** The game's own id of the quest (DDO Audit's `id`). */
  questId: number | null
  groupSize: GroupSize | null
  freeToVip: boolean | null
}

export const NO_FACTS: CatalogFacts = Object.freeze({ questId: null, groupSize: null, freeToVip: null })

/** A catalog row: the row the rules read, of a concrete tier (the catalog has no Unknown remake). */
export interface QuestRow extends TrackerRow, CatalogFacts {
  difficulty: QuestTier
}

/** `json`: rows in our own QuestRow shape; `quest-tracker`: another server's `GET /api/catalog`. */
export type SourceFormat = 'html' | 'json' | 'ddo-audit' | 'quest-tracker'

/** The `format` of the answer of `GET /api/catalog`, by which a sync knows another Quest Tracker. */
export const QUEST_TRACKER_FORMAT = 'quest-tracker-catalog'

export interface ParsedCatalog {
  format: SourceFormat
  rows: QuestRow[]
  /** Rows that may update a catalog row but are not added when none matches (namedAsArea). */
  updateOnly?: ReadonlySet<QuestRow>
  /** One sentence per source row that could not be read (it is left out of the catalog). */
  skipped: string[]
}

/** The text is neither a usable JSON catalog nor a page with the quest tables. */
export class CatalogParseError extends Error {}

/** `Heroic`, `epic`, ` LEGENDARY ` -> the tier; anything else -> null. */
export function tierOf(value: string): QuestTier | null {
  const wanted = value.trim().toLowerCase()
  return TIERS.find((tier) => tier.toLowerCase() === wanted) ?? null
}

/**
 * A count cell: `12,143` -> 12143; empty (unknown) -> null. Thousands separators may be commas,
 * spaces or thin spaces; a cell with a footnote or a word after the number keeps the number;
 * a cell with no digits at all (`?`, `-`) is unknown.
 */
export function parseCount(text: string): number | null {
  const compact = text.replace(/[\s,\u2009\u202f]/g, '')
  const digits = /\d+/.exec(compact)
  return digits ? Number(digits[0]) : null
}

/**
 * A level cell. The wiki writes Epic levels as `heroic/epic` (`7/27`, `-/27` when the quest has
 * no heroic version): an Epic row's level is the part after the slash. Other tiers take the
 * first number. Null when the cell holds no level.
 */
export function parseLevel(text: string, tier: QuestTier): number | null {
  const parts = text.split('/')
  const part = tier === 'Epic' ? parts[parts.length - 1] : parts[0]
  const level = parseCount(part ?? '')
  return level !== null && level >= 1 ? level : null
}

/** Collapses whitespace (non-breaking spaces included) and trims. */
const clean = (text: string) => text.replace(/\s+/g, ' ').trim()

/**
 * HTMLRewriter hands text chunks over as written in the source, entities included. Decoded by
 * `entities` (the decoder htmlparser2 uses) the way a browser decodes text: every named
 * entity of HTML (`&eacute;`, `&amp;`, and the legacy ones written without `;`), decimal and
 * hexadecimal references; an unknown name stays as written.
 */
export function decodeEntities(text: string): string {
  return decodeHTML(text)
}

export function parseCatalog(text: string): ParsedCatalog {
  const body = text.replace(/^\uFEFF/, '').trimStart()
  if (body.startsWith('[') || body.startsWith('{')) return parseJsonCatalog(body)
  if (body.startsWith('<')) return parseHtmlCatalog(body)
  throw new CatalogParseError('the source is neither JSON nor an HTML page')
}

// ---------------------------------------------------------------------------------------------
// JSON

export function parseJsonCatalog(text: string): ParsedCatalog {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    throw new CatalogParseError('the source looks like JSON but does not parse')
  }
  return parseCatalogData(data)
}

/** A JSON catalog already parsed: any of the JSON formats. */
export function parseCatalogData(data: unknown): ParsedCatalog {
  let format: SourceFormat = 'json'
  if (isRecord(data) && Array.isArray(data.quests)) {
    // Another Quest Tracker's `GET /api/catalog`, or the `{count, quests}` of `GET /quests`.
    if (data.format === QUEST_TRACKER_FORMAT) format = 'quest-tracker'
    data = data.quests
  } else if (isRecord(data) && Array.isArray(data.data)) {
    // DDO Audit's `GET /v1/quests` wraps its list: `{data, source, timestamp}`.
    data = data.data
  }
  if (!Array.isArray(data)) throw new CatalogParseError('the JSON is not an array of quest rows')
  if (format === 'json' && data.some(isDdoAuditQuest)) return parseDdoAudit(data)
  const collected = new Collector()
  data.forEach((raw, i) => {
    collected.add(isRecord(raw) ? jsonRow(raw) : 'is not an object', `row ${i + 1}`)
  })
  return collected.finish(format)
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function jsonCount(value: unknown): number | null {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? value : null
  if (typeof value === 'string') return parseCount(value)
  return null
}

const jsonText = (value: unknown) => (typeof value === 'string' ? clean(value) : '')

function jsonRow(raw: Record<string, unknown>): QuestRow | string {
  const name = jsonText(raw.name)
  if (!name) return 'has no name'
  const difficulty = typeof raw.difficulty === 'string' ? tierOf(raw.difficulty) : null
  if (!difficulty) return `("${name}") has difficulty ${JSON.stringify(raw.difficulty)}, not Heroic, Epic or Legendary`
  const level =
    typeof raw.level === 'number'
      ? Number.isInteger(raw.level) && raw.level >= 1
        ? raw.level
        : null
      : typeof raw.level === 'string'
        ? parseLevel(raw.level, difficulty)
        : null
  if (level === null) return `("${name}", ${difficulty}) has no valid level`
  return {
    name,
    difficulty,
    level,
    soloXP: jsonCount(raw.soloXP),
    normalXP: jsonCount(raw.normalXP),
    hardXP: jsonCount(raw.hardXP),
    eliteXP: jsonCount(raw.eliteXP),
    duration: jsonText(raw.duration),
    pack: jsonText(raw.pack),
    patron: jsonText(raw.patron),
    favor: jsonCount(raw.favor),
    questId: jsonId(raw.questId),
    groupSize: groupSizeOf(raw.groupSize),
    freeToVip: typeof raw.freeToVip === 'boolean' ? raw.freeToVip : null,
  }
}

const jsonId = (value: unknown) =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null

/** `Raid`, `party`, ...: the group size; anything else (`Arena`, missing) is unknown. */
function groupSizeOf(value: unknown): GroupSize | null {
  if (typeof value !== 'string') return null
  const wanted = value.trim().toLowerCase()
  return GROUP_SIZES.find((size) => size.toLowerCase() === wanted) ?? null
}

// ---------------------------------------------------------------------------------------------
// DDO Audit's quest list (https://api.ddoaudit.com/v1/quests; its model is `Quest` in
// Clemeit/ddo-audit-service, sanic/models/quest.py): one object per quest of the game, with the
// levels of its heroic and epic versions and their XP, and no favor, duration words or tiers of
// the wiki's kind. Each version becomes a row of the wiki's tier (tierOfEpicLevel).

const isDdoAuditQuest = (raw: unknown) =>
  isRecord(raw) && ('heroic_normal_cr' in raw || 'epic_normal_cr' in raw) && 'name' in raw

/** DDO Audit writes 0 for an XP it does not know. */
const auditXp = (xp: Record<string, unknown>, key: string) => {
  const value = jsonCount(xp[key])
  return value === null || value === 0 ? null : value
}

/**
 * Why an entry of DDO Audit's list is not a quest of the catalog, or null when it may be one. The
 * list is the game's whole quest data: it also holds player-versus-player arenas (group size
 * `Arena`) and the developers' test entries ("qa test", adventure areas named "DNT ..." or
 * "Test ...").
 */
export function notAQuest(raw: Record<string, unknown>): string | null {
  const name = jsonText(raw.name)
  const area = jsonText(raw.adventure_area)
  if (raw.group_size !== undefined && raw.group_size !== null && groupSizeOf(raw.group_size) === null)
    return `is a ${jsonText(raw.group_size) || 'group size'} entry, not a quest`
  if (/^(qa|dnt|test)\b/i.test(name) || /^(qa|dnt|test)\b/i.test(area))
    return 'is a test entry of the game, not a quest'
  return null
}

/**
 * Whether an entry is named as its own adventure area, as DDO Audit lists wilderness areas
 * ("Sorrowdusk Isle") but also some quests named after their dungeon ("Tomb of Horrors"). Such
 * an entry updates a catalog quest of that name and is never added as a new one (merge.ts).
 */
export function namedAsArea(raw: Record<string, unknown>): boolean {
  const area = jsonText(raw.adventure_area)
  return area !== '' && groupSizeOf(raw.group_size) !== 'Raid' && sameWords(area, jsonText(raw.name))
}

const sameWords = (a: string, b: string) => {
  const words = (text: string) =>
    text
      .toLowerCase()
      .replace(/\bthe\b/g, ' ')
      .replace(/[^\p{L}\p{N}]/gu, '')
  return words(a) === words(b)
}

export function parseDdoAudit(data: unknown[]): ParsedCatalog {
  const collected = new Collector()
  const updateOnly = new Set<QuestRow>()
  for (const [i, raw] of data.entries()) {
    const where = `entry ${i + 1}`
    if (!isRecord(raw)) {
      collected.add('is not an object', where)
      continue
    }
    const name = jsonText(raw.name)
    if (!name) {
      collected.add('has no name', where)
      continue
    }
    const why = notAQuest(raw)
    if (why) {
      collected.add(`("${name}") ${why}`, where)
      continue
    }
    const xp = isRecord(raw.xp) ? raw.xp : {}
    const facts: CatalogFacts = {
      questId: jsonId(raw.id),
      groupSize: groupSizeOf(raw.group_size),
      freeToVip: typeof raw.is_free_to_vip === 'boolean' ? raw.is_free_to_vip : null,
    }
    const add = (row: QuestRow) => {
      collected.add(row, where)
      if (namedAsArea(raw)) updateOnly.add(row)
    }
    const shared = {
      name,
      duration: '',
      pack: jsonText(raw.required_adventure_pack),
      patron: jsonText(raw.patron),
      favor: null,
      ...facts,
    }
    const heroic = jsonCount(raw.heroic_normal_cr)
    const epic = jsonCount(raw.epic_normal_cr)
    let versions = 0
    if (heroic !== null && heroic >= 1 && heroic <= MAX_HEROIC_QUEST_LEVEL) {
      versions++
      add({
        ...shared,
        difficulty: 'Heroic',
        level: heroic,
        soloXP: auditXp(xp, 'heroic_casual'),
        normalXP: auditXp(xp, 'heroic_normal'),
        hardXP: auditXp(xp, 'heroic_hard'),
        eliteXP: auditXp(xp, 'heroic_elite'),
      })
    }
    if (epic !== null && epic >= 1) {
      versions++
      add({
        ...shared,
        difficulty: tierOfEpicLevel(epic),
        level: epic,
        soloXP: auditXp(xp, 'epic_casual'),
        normalXP: auditXp(xp, 'epic_normal'),
        hardXP: auditXp(xp, 'epic_hard'),
        eliteXP: auditXp(xp, 'epic_elite'),
      })
    }
    if (versions === 0) collected.add(`("${name}") has no heroic level from 1 to 20 and no epic level`, where)
  }
  return { ...collected.finish('ddo-audit'), updateOnly }
}

// ---------------------------------------------------------------------------------------------
// HTML

/** Cells of a row, in page order: name, level, casual/solo, normal, hard, elite, duration, pack, patron, favor. */
const CELLS_PER_ROW = 10

interface Cell {
  text: string
}

interface TableState {
  /** From the caption, or else from the tier heading above the table. */
  tier: QuestTier | null
  rows: string[][]
  row: string[] | null
  /** The open <td>; <th> cells are headers and collect nothing. */
  cell: Cell | null
}

// HTML lets </td> and </tr> be left out, and the parser then reports those end tags only at
// </table>: a new cell or row closes the previous one, and each close happens once.
function finishCell(table: TableState): void {
  if (table.row && table.cell) table.row.push(clean(decodeEntities(table.cell.text)))
  table.cell = null
}

function finishRow(table: TableState): void {
  finishCell(table)
  if (table.row && table.row.length > 0) table.rows.push(table.row)
  table.row = null
}

/** Tier named by a heading or caption: "Heroic", "Epic quests", "Legendary"... */
function tierInText(text: string): QuestTier | null {
  const words = clean(decodeEntities(text))
    .toLowerCase()
    .split(/[^a-z]+/)
  return TIERS.find((tier) => words.includes(tier.toLowerCase())) ?? null
}

export function parseHtmlCatalog(html: string): ParsedCatalog {
  const tables: TableState[] = []
  const open: TableState[] = []
  let headingTier: QuestTier | null = null
  let headingTierRank = 0
  let heading: { text: string; rank: number } | null = null
  let caption: { text: string; table: TableState } | null = null
  // Footnote markers, hidden sort keys and scripts are not cell text.
  let hidden = 0

  const current = () => open[open.length - 1]
  const appendText = (text: string) => {
    if (hidden > 0) return
    if (heading) heading.text += text
    if (caption) caption.text += text
    const cell = current()?.cell
    if (cell) cell.text += text
  }

  const rewriter = new HTMLRewriter()
    .on('h1, h2, h3, h4, h5, h6', {
      element(el) {
        heading = { text: '', rank: Number(el.tagName.slice(1)) }
        el.onEndTag(() => {
          if (!heading) return
          const tier = tierInText(heading.text)
          if (tier) {
            headingTier = tier
            headingTierRank = heading.rank
          } else if (headingTier && heading.rank <= headingTierRank) {
            // A new section at the tier heading's level ("See also"...): its tables are not quests.
            headingTier = null
          }
          heading = null
        })
      },
    })
    .on('table', {
      element(el) {
        const table: TableState = { tier: headingTier, rows: [], row: null, cell: null }
        tables.push(table)
        open.push(table)
        el.onEndTag(() => {
          finishRow(table)
          open.splice(open.lastIndexOf(table), 1)
        })
      },
    })
    .on('caption', {
      element(el) {
        const table = current()
        if (!table) return
        caption = { text: '', table }
        el.onEndTag(() => {
          if (caption) caption.table.tier = tierInText(caption.text) ?? caption.table.tier
          caption = null
        })
      },
    })
    .on('tr', {
      element(el) {
        const table = current()
        if (!table) return
        finishRow(table)
        const row: string[] = []
        table.row = row
        el.onEndTag(() => {
          // Header rows have <th> cells only, so they finish empty and are not kept.
          if (table.row === row) finishRow(table)
        })
      },
    })
    .on('td, th', {
      element(el) {
        const table = current()
        if (!table?.row) return
        finishCell(table)
        if (el.tagName !== 'td') return
        const cell: Cell = { text: '' }
        table.cell = cell
        el.onEndTag(() => {
          if (table.cell === cell) finishCell(table)
        })
      },
    })
    .on('br', {
      element() {
        appendText(' ')
      },
    })
    .on('sup, script, style, [style*="display:none"], [style*="display: none"]', {
      element(el) {
        // A void element (<img style="display:none">) has no content to hide, and no end tag.
        if (el.selfClosing || !el.canHaveContent) return
        hidden++
        el.onEndTag(() => {
          hidden--
        })
      },
    })
    .onDocument({
      text(chunk) {
        appendText(chunk.text)
      },
    })
  try {
    rewriter.transform(html)
  } catch (error) {
    throw new CatalogParseError(`the page could not be parsed (${error instanceof Error ? error.message : error})`)
  }

  let quests = tables.filter((table) => table.tier && table.rows.some((row) => row.length >= CELLS_PER_ROW))
  if (quests.length === 0) {
    // No heading or caption names the tiers: fall back on the page's order, when it has
    // exactly the three quest tables.
    const candidates = tables.filter((table) => table.rows.some((row) => row.length >= CELLS_PER_ROW))
    if (candidates.length === TIERS.length) {
      candidates.forEach((table, i) => {
        table.tier = TIERS[i] as QuestTier
      })
      quests = candidates
    }
  }
  if (quests.length === 0) throw new CatalogParseError('the page has no quest tables (Heroic, Epic, Legendary)')

  const collected = new Collector()
  for (const table of quests) {
    const tier = table.tier as QuestTier
    table.rows.forEach((cells, i) => {
      const row =
        cells.length < CELLS_PER_ROW ? `has ${cells.length} cells, not ${CELLS_PER_ROW}` : htmlRow(cells, tier)
      collected.add(row, `${tier} table row ${i + 1}`)
    })
  }
  return collected.finish('html')
}

function htmlRow(cells: string[], tier: QuestTier): QuestRow | string {
  const [
    name = '',
    level = '',
    solo = '',
    normal = '',
    hard = '',
    elite = '',
    duration = '',
    pack = '',
    patron = '',
    favor = '',
  ] = cells
  if (!name) return 'has no name'
  const parsedLevel = parseLevel(level, tier)
  if (parsedLevel === null) return `("${name}") has no valid level (${JSON.stringify(level)})`
  return {
    name,
    difficulty: tier,
    level: parsedLevel,
    soloXP: parseCount(solo),
    normalXP: parseCount(normal),
    hardXP: parseCount(hard),
    eliteXP: parseCount(elite),
    duration,
    pack,
    patron,
    favor: parseCount(favor),
    ...NO_FACTS,
  }
}

// ---------------------------------------------------------------------------------------------

/** Gathers rows in source order, keeping the first of any (name, difficulty) pair. */
class Collector {
  private readonly rows: QuestRow[] = []
  private readonly skipped: string[] = []
  private readonly seen = new Set<string>()

  /** `row` is the row, or why it could not be read. */
  add(row: QuestRow | string, where: string): void {
    if (typeof row === 'string') {
      this.skipped.push(`${where} ${row}`)
      return
    }
    const key = `${row.name}\u0000${row.difficulty}`
    if (this.seen.has(key)) {
      this.skipped.push(`${where} repeats "${row.name}" (${row.difficulty})`)
      return
    }
    this.seen.add(key)
    this.rows.push(row)
  }

  finish(format: SourceFormat): ParsedCatalog {
    return { format, rows: this.rows, skipped: this.skipped }
  }
}
