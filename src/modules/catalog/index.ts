// GET /quests, /quests/search, /quests/lookup and /scorecards: the read side of the quest
// catalog, answered from the in-memory index (see service.ts). Syncing is in sync.ts.
import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { maybeGzipped } from '../../http/gzip'
import { errors } from '../../http/model'
import { MIN_ACCOUNTS_FOR_FIGURE } from '../../rules/quests/runs'
import type { Guard } from '../auth/guard'
import { signedInRoutes } from '../auth/guard'
import { CatalogExport, LookupQuery, LookupResponse, QuestList, Scorecards, SearchQuery, SearchResponse } from './model'
import { QUEST_TIMES_REFRESH_MS } from './questTimes'
import { type CatalogAnswer, catalogAnswer, catalogExport, listScorecards, lookupQuest, searchQuests } from './service'
import { SNAPSHOT } from './snapshot'

export function catalogModule({ db, clock }: AppDeps, guard: Guard) {
  return signedInRoutes(guard, '', ['Catalog'])
    .get('/quests', ({ request }) => sendCatalog(request, catalogAnswer(db, clock), {}), {
      response: { 200: QuestList },
      detail: {
        summary: 'The whole quest catalog, one row per remake',
        description: `Unknown XP or favor is null. The DDO wiki's list "Quests by level and XP" as it ships with the server, brought up to date daily from the configured sources (the wiki, DDO Audit's quest list, another Quest Tracker). Each row's \`times\` are this server's measured runs of the remake per setting: each account's median duration and median XP per minute, and the median of those, each shown only from the runs of at least ${MIN_ACCOUNTS_FOR_FIGURE} accounts (accounts that opted out are not counted), the duration in whole minutes and the XP per minute to two significant figures; at most ${QUEST_TIMES_REFRESH_MS / 1000} s behind the runs.`,
      },
    })
    .get('/quests/search', ({ query }) => searchQuests(db, query), {
      query: SearchQuery,
      response: { 200: SearchResponse },
      detail: {
        summary: 'Ranked search over the catalog',
        description: [
          'Exact name > name prefix > name substring > every word in the name > pack > patron.',
          'With a level: enterable remakes (level >= quest level) rank above the others, and the tier of',
          'that level (below 20 Heroic, 20-29 Epic, 30+ Legendary) slightly above the rest.',
          'Every remake is its own row; remakes are never collapsed.',
        ].join(' '),
      },
    })
    .get('/quests/lookup', ({ query }) => lookupQuest(db, query.name, query.difficulty), {
      query: LookupQuery,
      response: { 200: LookupResponse, ...errors(404) },
      detail: {
        summary: 'Every remake of one quest name',
        description:
          'Exact name, case-insensitive. `remakes` always lists every tier of the name; `difficulty` filters `quests`. 404 when the name, or the requested remake of it, is not in the catalog.',
      },
    })
    .get('/scorecards', () => listScorecards(db), {
      response: { 200: Scorecards },
      detail: {
        summary: 'Optional-pursuit scorecard thresholds keyed by quest name',
        description:
          'Loaded by the server administrator with `quest-tracker scorecards import FILE`; empty until then.',
      },
    })
}

/**
 * GET /api/quests: the same catalog for the website, with no sign-in (it is the wiki's public
 * list), so the share page can show it too. GET /api/catalog: the catalog for another Quest
 * Tracker's sync (a guild's server that can reach a source feeds the others), with its source and
 * licence. Both revalidated by ETag: a tracker reload costs a 304.
 */
export function publicCatalogModule({ db, clock }: AppDeps) {
  return new Elysia()
    .get('/api/quests', ({ request }) => sendRevalidated(request, catalogAnswer(db, clock)), {
      response: { 200: QuestList },
      detail: { summary: 'The quest catalog (website, no sign-in)', tags: ['Website'] },
    })
    .get('/api/catalog', ({ request }) => sendRevalidated(request, catalogExport(db, SNAPSHOT)), {
      response: { 200: CatalogExport },
      detail: {
        summary: 'The quest catalog for other servers (no sign-in)',
        description:
          "Every remake row with where the catalog comes from and its licence (the DDO wiki's content, CC BY-SA 2.5), and none of this server's run times. Another Quest Tracker syncs from it: list `http://THIS-SERVER:8080/api/catalog` in its `CATALOG_SOURCES`. ETag and 304 as `/api/quests`.",
        security: [],
        tags: ['Catalog'],
      },
    })
}

const sendRevalidated = (request: Request, answer: CatalogAnswer) => {
  const headers = { etag: answer.etag, 'cache-control': 'no-cache' }
  if (request.headers.get('if-none-match') === answer.etag) return new Response(null, { status: 304, headers })
  return sendCatalog(request, answer, headers)
}

/** The catalog as serialized once per sync: gzipped when the client accepts it. */
const sendCatalog = (request: Request, answer: CatalogAnswer, headers: Record<string, string>) =>
  maybeGzipped(request, answer.json, answer.gzip, { ...headers, 'content-type': 'application/json; charset=utf-8' })
