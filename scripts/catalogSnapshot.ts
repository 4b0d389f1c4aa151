// `npm run catalog:snapshot -- --from FILE_OR_URL`: writes the catalog that ships with the program
// (src/modules/catalog/snapshot.json) from any source the sync reads (the wiki page's HTML, a JSON
// file of quest rows, DDO Audit's list, another Quest Tracker), read and parsed by the sync's own
// code. The header names the source, when it was read and its licence: the defaults describe the
// DDO wiki's "Quests by level and XP" (CC BY-SA 2.5); give --source, --retrieved and --licence for
// anything else. Rows the source could not give are listed and left out.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { parseCatalog, QUEST_TRACKER_FORMAT } from '../src/modules/catalog/parse'
import { readSource } from '../src/modules/catalog/sync'

const WIKI_PAGE = 'https://ddowiki.com/page/Quests_by_level_and_XP'
const WIKI_LICENCE = 'CC BY-SA 2.5 (https://creativecommons.org/licenses/by-sa/2.5/)'

const { values } = parseArgs({
  options: {
    from: { type: 'string' },
    out: { type: 'string', default: join(import.meta.dir, '..', 'src', 'modules', 'catalog', 'snapshot.json') },
    title: { type: 'string', default: 'Quests by level and XP' },
    source: { type: 'string', default: WIKI_PAGE },
    retrieved: { type: 'string' },
    licence: { type: 'string', default: WIKI_LICENCE },
    attribution: { type: 'string' },
    via: { type: 'string' },
  },
})
if (!values.from) {
  console.error(
    'usage: npm run catalog:snapshot -- --from FILE_OR_URL [--retrieved ISO_DATE] [--source URL] [--title TEXT] [--licence TEXT] [--attribution TEXT] [--via TEXT] [--out PATH]',
  )
  process.exit(2)
}
const retrieved = new Date(values.retrieved ?? Date.now())
if (Number.isNaN(retrieved.getTime())) {
  console.error(`--retrieved ${values.retrieved} is not a date`)
  process.exit(2)
}
const parsed = parseCatalog(await readSource(values.from))
for (const reason of parsed.skipped) console.error(`left out: ${reason}`)
const attribution =
  values.attribution ??
  (values.source === WIKI_PAGE
    ? 'Quest names, levels, XP, packs, patrons and favor from the DDO wiki (ddowiki.com), "Quests by level and XP", by its contributors.'
    : `From ${values.source}.`)
const snapshot = {
  format: QUEST_TRACKER_FORMAT,
  title: values.title,
  source: values.source,
  retrieved: retrieved.toISOString(),
  licence: values.licence,
  attribution,
  ...(values.via ? { via: values.via } : {}),
  count: parsed.rows.length,
  // The facts only some sources carry are left out where unknown (null is what reading gives).
  quests: parsed.rows.map(({ questId, groupSize, freeToVip, ...row }) => ({
    ...row,
    ...(questId === null ? {} : { questId }),
    ...(groupSize === null ? {} : { groupSize }),
    ...(freeToVip === null ? {} : { freeToVip }),
  })),
}
const { quests, ...header } = snapshot
// One row a line: a later snapshot's diff shows the quests that changed.
const text = `${JSON.stringify(header, null, 2).replace(/\n}$/, ',\n  "quests": [\n')}${quests.map((row) => `    ${JSON.stringify(row)}`).join(',\n')}\n  ]\n}\n`
JSON.parse(text) // the file must read back
writeFileSync(values.out, text)
console.log(
  `${values.out}: ${quests.length} rows from ${values.from} (${parsed.format}), ${parsed.skipped.length} left out`,
)
