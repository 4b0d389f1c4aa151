// Every statement the requests of an evening run (the plugin's and the website's) finds its rows
// through an index: SQLite's EXPLAIN QUERY PLAN of each must not scan a table that grows with
// the players (nor the catalog, on every posted completion), nor sort a character's completions.
// The few reads of a whole table by design are listed below with their reason. bench/README.md
// has how the reads grow with the data.

import type { Database } from 'bun:sqlite'
import { expect, test } from 'bun:test'
import { syncCatalog } from '../../src/modules/catalog/sync'
import { SMALL_JSON } from '../catalogFixtures'
import { ok, testApp } from '../helpers'

/** Tables that grow with the players and what they log, and the quest catalog. */
const INDEXED = [
  'users',
  'api_tokens',
  'sessions',
  'characters',
  'completions',
  'routes',
  'route_steps',
  'builds',
  'lives',
  'quests',
  'runs',
  'kept_deletions',
  'character_quest_times',
  'character_quest_times_dirty',
]

/** Statements that read a whole table on purpose, by a pattern of their SQL, with the reason. */
const WHOLE_TABLE_BY_DESIGN: [RegExp, string][] = [
  [/from "routes" inner join "users"/, 'the route list shows every route on the server'],
  [/^select count\(\*\) from "(routes|quests)"$/, '/info counts every route and every catalog row'],
  [/^select .* from "quests" order by "quests"\."id" asc$/, 'the catalog index is built from every row, once per sync'],
  [/^select distinct "name" from "quests"$/, 'a new route takes the catalog spelling of its quest names'],
  [
    /^select "username" from "users" where "users"\."username" GLOB/,
    "a new account's username is compared with the names beyond ASCII (NFKC, every letter's case), at account creation only",
  ],
]

/** Records the SQL of every statement prepared on `client` from now on. */
function recordStatements(client: Database): Set<string> {
  const seen = new Set<string>()
  for (const method of ['prepare', 'query'] as const) {
    const original = client[method].bind(client)
    client[method] = ((sql: string) => {
      seen.add(sql)
      return original(sql)
    }) as typeof original
  }
  return seen
}

test('every statement of an evening finds its rows through an index', async () => {
  const t = testApp()
  const seen = recordStatements(t.db.$client)
  await syncCatalog({ db: t.db, clock: t.clock, logger: { ...console, debug() {}, info() {} } }, SMALL_JSON)
  const token = await t.userWithToken('alice')
  const cookie = await t.signIn('alice')
  const plugin = t.plugin(token)
  const web = t.web(cookie)
  const { id } = ok(await plugin.characters.post({ givenName: 'Ann' }), 201)
  const character = plugin.characters({ id })
  ok(await character.patch({ classes: [{ name: 'Fighter', levels: 5 }] }))
  ok(await character.login.post())
  for (const name of ['crypt', 'Shadow Gate', 'not in the catalog'])
    ok(await character.completions.post({ name, setting: 'elite' }), 201)
  const { undoId } = ok(await character.completions.delete({ name: 'Crypt' }))
  ok(await character.completions.restore.post({ undoIds: [undoId as number] }))
  ok(await character.completions.delete({ name: 'Crypt' }))
  ok(await character.progress.put({ levelBand: 3 }))
  const route = ok(await plugin.routes.post({ name: 'R', quests: [{ name: 'Crypt' }, { name: 'Bell Tower' }] }), 201)
  ok(await plugin.auth.me.get())
  ok(await plugin.info.get())
  ok(await plugin.characters.get())
  ok(await plugin.characters.find.get({ query: { name: 'Ann' } }))
  ok(await character.get())
  ok(await character.progress.get())
  ok(await character['quest-times'].get())
  ok(await character.next.get())
  ok(await character.completions.post({ name: 'Crypt', durationSeconds: 600 }), 201)
  ok(await character.next.get())
  ok(await character.lives.get())
  ok(await character['past-lives'].get())
  ok(await plugin['past-lives'].get())
  ok(await plugin.routes.get())
  ok(await plugin.routes({ id: route.id }).get())
  ok(await plugin.navigation.get({ query: { characterId: id, routeId: route.id } }))
  ok(await plugin.quests.get())
  ok(await plugin.quests.search.get({ query: { q: 'the' } }))
  ok(await plugin.quests.lookup.get({ query: { name: 'crypt' } }))
  ok(await plugin.scorecards.get())
  ok(await t.api.quests.get())
  ok(await web.session.get())
  ok(await web.characters({ id }).progress.get())
  ok(await web.characters.get())
  ok(await web.account.tokens.get())
  ok(await web.account.export.get())

  const problems: string[] = []
  for (const sql of seen) {
    if (!/^\s*(select|insert|update|delete|with)\b/i.test(sql)) continue
    if (WHOLE_TABLE_BY_DESIGN.some(([fragment]) => fragment.test(sql))) continue
    const plan = t.db.$client
      .query<{ detail: string }, []>(`explain query plan ${sql}`)
      .all()
      .map((row) => row.detail)
    // SHOW_PLANS=1 bun test test/db/queryPlans.test.ts prints every statement with its plan.
    if (process.env.SHOW_PLANS) console.log(sql, plan)
    for (const step of plan) {
      const scanned = /^SCAN (\w+)/.exec(step)?.[1]
      if (scanned && INDEXED.includes(scanned)) problems.push(`${step}\n  in ${sql}`)
      if (/TEMP B-TREE/.test(step) && /from "completions"/.test(sql)) problems.push(`${step}\n  in ${sql}`)
    }
  }
  expect(problems).toEqual([])
})
