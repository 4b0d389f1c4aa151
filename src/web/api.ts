// The one client of the website's same-origin cookie API (CONTRACT.md "The website"), made by
// Eden Treaty from the app's own type: every path, body, query and answer below is the route's,
// so renaming a route or a field is a type error here, not a broken page. (`import type` only:
// no server code reaches the bundle; Eden's runtime is a few KiB of fetch.)
//
// One rule for a session that ended (expired, signed out elsewhere, password changed): any call
// that answers 401 sends the page to sign in, except the few whose 401 means something else
// (signing in, asking whether anyone is signed in, the current password of a password change).
import { treaty } from '@elysiajs/eden'
import type { Static } from 'elysia'
import type { App } from '../app'
import type { User as UserSchema } from '../modules/auth/model'
import type { TokenListItem } from '../modules/auth/service'
import type {
  BuildImportBody,
  BuildImportPreview as BuildImportPreviewSchema,
  ImportedBuild as ImportedBuildSchema,
} from '../modules/builds/importModel'
import type { Life as LifeSchema, ReincarnateBody } from '../modules/builds/lives/model'
import type {
  BuildDocument,
  LiveBuild as LiveBuildSchema,
  PlannedBuild as PlannedBuildSchema,
} from '../modules/builds/model'
import type {
  CatalogProvenance as CatalogProvenanceSchema,
  QuestListRow as QuestRowSchema,
} from '../modules/catalog/model'
import type {
  CharacterInput as CharacterInputSchema,
  CharacterMeta as CharacterMetaSchema,
  Character as CharacterSchema,
} from '../modules/characters/model'
import type { RemovedCompletion as RemovedCompletionSchema, StoredCompletion } from '../modules/completions/model'
import type { AccountGrid as AccountGridSchema, GridViewPatch } from '../modules/grid/model'
import type {
  GroupDetail as GroupDetailSchema,
  GroupGrid as GroupGridSchema,
  GroupSummary as GroupSummarySchema,
  MemberTracker as MemberTrackerSchema,
  PartyAnswer as PartyAnswerSchema,
  SharedCharacter as SharedCharacterSchema,
} from '../modules/groups/model'
import type { InvitePreview as InvitePreviewSchema, SignUpBody } from '../modules/invites/model'
import type { NextAnswer as NextAnswerSchema } from '../modules/next/model'
import type {
  AccountPastLives as AccountPastLivesSchema,
  CharacterPastLives as CharacterPastLivesSchema,
} from '../modules/pastLives/model'
import type { CompletionsImportBody, ImportPreview as ImportPreviewSchema } from '../modules/playerData/model'
import type { ProgressPut as ProgressPutSchema, Progress as ProgressSchema } from '../modules/progress/model'
import type {
  Navigation as NavigationSchema,
  RouteDetail as RouteDetailSchema,
  RouteInputBody,
  RouteListItem as RouteListItemSchema,
} from '../modules/routes/model'
import type { CharacterSagas as CharacterSagasSchema } from '../modules/sagas/model'
import type { CharacterTimers as CharacterTimersSchema } from '../modules/timers/model'
import type { Difficulty, Setting } from '../rules/quests/completion'
import type { GridView } from '../rules/quests/grid'
import type { StepSetting } from '../rules/routes/routeStep'
import { type EarlyReads, FIRST_NEXT } from './firstReads'
import { noteAnswer, noteUnreachable } from './offline/status'
import { loginPath } from './paths'

export type User = Static<typeof UserSchema>
/** A catalog row with this server's measured times per setting. */
export type QuestRow = Static<typeof QuestRowSchema>
export type NextAnswer = Static<typeof NextAnswerSchema>
export type Progress = Static<typeof ProgressSchema>
export type ProgressPatch = Omit<Static<typeof ProgressPutSchema>, 'completions'>
export type Completion = Static<typeof StoredCompletion>
/** A completion as a DELETE removed it, whole: what restoreCompletions takes back. */
export type RemovedCompletion = Static<typeof RemovedCompletionSchema>
/** A character as the website lists it: the plugin's Character plus distinct quests done. */
export type Character = Static<typeof CharacterSchema> & { questsDone?: number }
/** A character's fields as the form sends them (create and PATCH; the plugin's rules). */
export type CharacterInput = Static<typeof CharacterInputSchema>
/** The picklists of the character form: classes, races, alignments, genders, servers, limits. */
export type CharacterMeta = Static<typeof CharacterMetaSchema>
/** What an invite is, before it is used. */
export type Invite = Static<typeof InvitePreviewSchema>['invite']
export type SignUp = Static<typeof SignUpBody>

export type { BuildDocument, ReincarnateBody, RouteInputBody, TokenListItem }
export type CompletionsImport = Static<typeof CompletionsImportBody>
export type CompletionsImportResult = Static<typeof ImportPreviewSchema>
export type Life = Static<typeof LifeSchema>
export type LiveBuild = Static<typeof LiveBuildSchema>
export type PlannedBuild = Static<typeof PlannedBuildSchema>
export type ImportedBuild = Static<typeof ImportedBuildSchema>
export type BuildImport = Static<typeof BuildImportBody>
export type BuildImportPreview = Static<typeof BuildImportPreviewSchema>
export type { QuestsPreview } from '../modules/completions/importModel'
export type RouteListItem = Static<typeof RouteListItemSchema>
export type RouteDetail = Static<typeof RouteDetailSchema>
export type Navigation = Static<typeof NavigationSchema>
export type MatchMode = Navigation['match']
export type CharacterPastLives = Static<typeof CharacterPastLivesSchema>
export type AccountPastLives = Static<typeof AccountPastLivesSchema>
export type CharacterSagas = Static<typeof CharacterSagasSchema>
export type GroupSummary = Static<typeof GroupSummarySchema>
export type GroupDetail = Static<typeof GroupDetailSchema>
export type SharedCharacter = Static<typeof SharedCharacterSchema>
export type PartyAnswer = Static<typeof PartyAnswerSchema>
export type CharacterTimers = Static<typeof CharacterTimersSchema>
export type CatalogSource = Static<typeof CatalogProvenanceSchema>
/** Every character of the account against the catalog, one letter a row (rules/quests/grid.ts). */
export type AccountGrid = Static<typeof AccountGridSchema>
/** The characters shared with a group against the catalog, the same way. */
export type GroupGrid = Static<typeof GroupGridSchema>
export type GridViewChange = Static<typeof GridViewPatch>
export type { GridView }
/** A shared character's tracker as a member of the group reads it. */
export type MemberTracker = Static<typeof MemberTrackerSchema>

/**
 * A page of the shared routes. Servers before route-list pagination answer `{routes}` (every
 * route, no `total`); later ones add `total`, `limit` and `offset` and take `limit`/`offset`.
 */
export interface RoutePage {
  routes: RouteListItem[]
  total?: number
  limit?: number
  offset?: number
}

export interface CompletionKey {
  name: string
  difficulty: Difficulty
  setting: Setting
}

/** What the server said went wrong: its `{"error": "<sentence>"}` and the status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

/** The sentence to show for anything thrown: the server's, the network's, or the error's own. */
export const errorMessage = (e: unknown) => (e instanceof Error ? e.message : String(e))

const UNREACHABLE = 'The server cannot be reached. Check that it is running and that you are on its network.'

/** What an Eden call resolves to, as far as this client reads it (no `response`: never reached). */
interface Answer {
  data: unknown
  error: { status: unknown; value: unknown } | null
  response?: Response
}

/** What a 401 means for a call: the session ended (go to sign in), or an answer the caller reads. */
export type On401 = 'sign-in' | 'throw'

/** The sentence of an error answer: the server's `error`, else its status line. */
function sentenceOf(error: Answer['error'], response: Response): string {
  const value = error?.value
  if (typeof value === 'object' && value !== null && 'error' in value && typeof value.error === 'string') {
    return value.error
  }
  return `The server answered ${response.status} ${response.statusText}.`.replace(' .', '.')
}

/**
 * The answer's data, or an ApiError with the server's sentence. A 401 of a signed-in page's call
 * replaces the page with sign in (and never resolves): that is the one place a session's end is
 * handled.
 */
async function ok<A extends Answer>(call: Promise<A>, on401: On401 = 'sign-in'): Promise<NonNullable<A['data']>> {
  let answer: A
  try {
    answer = await call
  } catch {
    noteUnreachable()
    throw new ApiError(0, UNREACHABLE)
  }
  // Whether the server answered, or the service worker with a kept answer (offline/status.ts).
  if (answer.response) noteAnswer(answer.response)
  if (answer.error === null) return answer.data as NonNullable<A['data']>
  // Eden answers a fetch that failed (no server, no network) with an error and no response.
  const { response } = answer
  if (!response) {
    noteUnreachable()
    throw new ApiError(0, UNREACHABLE)
  }
  if (response.status === 401 && on401 === 'sign-in') {
    location.replace(loginPath(location.pathname + location.search))
    return new Promise<never>(() => {})
  }
  throw new ApiError(response.status, sentenceOf(answer.error, response))
}

/** The answer of a read, or null when the server answered 404 (any other failure is thrown). */
async function noneIf404<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return null
    throw e
  }
}

/** The reads the boot script started (boot.ts, firstReads.ts); from now on it starts none. */
const early: EarlyReads = (() => {
  if (typeof window === 'undefined') return new Map()
  const reads = window.qtEarlyReads
  window.qtEarlyReads = 'taken'
  return reads instanceof Map ? reads : new Map()
})()

/** Settles when every read the boot script started has its answer (at once when it started none). */
export const firstReadsDone: Promise<unknown> = Promise.allSettled([...early.values()])

/** A response read as Eden reads it: the body (JSON, else text), as data or as the error's value. */
async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text()
  let value: unknown = text
  if ((response.headers.get('content-type') ?? '').includes('json')) {
    try {
      value = JSON.parse(text)
    } catch {
      // The text itself, as Eden leaves it.
    }
  }
  return response.ok
    ? { data: value, error: null, response }
    : { data: null, error: { status: response.status, value }, response }
}

/**
 * The boot script's read of `path` (its path and query), taken once, when it started one; else
 * `call` (the same route through Eden, whose type the answer has).
 */
function firstRead<A extends Answer>(path: string, call: () => Promise<A>): Promise<A> {
  const read = early.get(path)
  if (!read) return call()
  early.delete(path)
  return read.then(answerOf) as Promise<A>
}

// Same origin: the cookie goes with every call (fetch's default), and the paths are the app's.
// `parseDate: false`: Eden would turn every ISO timestamp into a Date; the routes' types (and the
// pages) say they are strings.
const server = treaty<App>(typeof location === 'undefined' ? 'http://localhost' : location.origin, {
  parseDate: false,
}).api
const character = (id: number) => server.characters({ id })

export const api = {
  session: (on401: On401 = 'sign-in') =>
    ok(
      firstRead('/api/session', () => server.session.get()),
      on401,
    ),
  signIn: (identifier: string, password: string) => ok(server.session.post({ identifier, password }), 'throw'),
  signOut: () => ok(server.session.delete()),
  /** What an invite is; a 404 (used, expired, unknown) is thrown for the page to say. */
  invite: (code: string) => ok(server.invites({ code }).get(), 'throw'),
  /** Makes the account with the invite and signs it in (the session cookie). */
  signUp: (body: SignUp) => ok(server.signup.post(body), 'throw'),

  characters: () => ok(server.characters.get()),
  character: (id: number) => ok(firstRead(`/api/characters/${id}`, () => character(id).get())),
  characterMeta: () => ok(server.characters.meta.get()),
  createCharacter: (body: CharacterInput) => ok(server.characters.post(body)),
  /** Partial: the fields sent change, the others keep their value. */
  updateCharacter: (id: number, body: CharacterInput) => ok(character(id).patch(body)),
  /** The character goes with its completions, builds and lives. */
  deleteCharacter: (id: number) => ok(character(id).delete()),
  /** One life's tracker state; the current life without `life`. */
  progress: (id: number, life?: number) =>
    ok(character(id).progress.get(life === undefined ? {} : { query: { life } })),
  /**
   * The current life's tracker state and its ETag: the character's version, which the events
   * that follow continue (tracker/store.ts applies their changes to it).
   */
  progressTagged: async (id: number): Promise<{ progress: Progress; tag: string | null }> => {
    let tag: string | null = null
    const progress = await ok(
      firstRead(`/api/characters/${id}/progress`, () => character(id).progress.get()).then((answer) => {
        tag = answer.response?.headers.get('etag') ?? null
        return answer
      }),
    )
    return { progress, tag }
  },
  /** What to run next, ranked by XP per minute or by the next favor reward. */
  next: (id: number, by: 'xp' | 'favor') =>
    ok(
      firstRead(`/api/characters/${id}/next?by=${by}&limit=${FIRST_NEXT.limit}`, () =>
        character(id).next.get({ query: { by, limit: FIRST_NEXT.limit } }),
      ),
    ),
  /** The character's own times from every run (any life). */
  questTimes: (id: number) => ok(character(id)['quest-times'].get()),
  /** Raid lockouts and runs this week (chest ransack), from the character's runs. */
  timers: (id: number) => ok(character(id).timers.get()),
  /** The same for every character of the account (the alts grid's lockout marks). */
  accountTimers: () => ok(server.characters.timers.get()),
  /** Partial: send only the fields that changed (the plugin reads the same fields). */
  putProgress: (id: number, patch: ProgressPatch, on401: On401 = 'sign-in') =>
    ok(character(id).progress.put(patch), on401),
  /**
   * The plugin's upsert: with `completedAt`, the same tick sent twice is one completion and one
   * run (the write queue may send a tick again whose answer never came).
   */
  logCompletion: (id: number, key: CompletionKey & { completedAt?: string }, on401: On401 = 'sign-in') =>
    ok(character(id).completions.post(key), on401),
  /** Answers what it removed, whole (`removed`): restoreCompletions puts it back. */
  deleteCompletion: (id: number, key: CompletionKey, on401: On401 = 'sign-in') =>
    ok(character(id).completions.delete(key), on401),
  restoreCompletions: (id: number, completions: RemovedCompletion[]) =>
    ok(character(id).completions.restore.post({ completions })),
  /** Server-sent events: `change` each time the character's data changes, from any client. */
  eventsUrl: (id: number) => `/api/characters/${encodeURIComponent(String(id))}/events`,

  /** POST …/share: a new share token (the old link stops working) and sharing on. */
  share: (id: number) => ok(character(id).share.post()),
  /** DELETE …/share: the share link answers 404 until shared again. */
  unshare: (id: number) => ok(character(id).share.delete()),

  /** The live snapshot, or null before the plugin sent one (the server's 404). */
  live: (id: number): Promise<LiveBuild | null> => noneIf404(ok(character(id).live.get())),
  build: (id: number) => ok(character(id).build.get()),
  promoteLive: (id: number) => ok(character(id).live['promote-to-planned'].post()),
  /** A DDO Builder `.DDOBuild` file's text: replaces the planned build; answers it with `warnings`. */
  previewBuildImport: (id: number, body: BuildImport) => ok(character(id).build.import.preview.post(body)),
  importBuild: (id: number, body: BuildImport) => ok(character(id).build.import.post(body)),
  /** Where the planned build downloads as a `.DDOBuild` file (an ordinary link: the browser saves it). */
  exportBuildUrl: (id: number) => `/api/characters/${encodeURIComponent(String(id))}/build/export`,
  lives: (id: number) => ok(character(id).lives.get()),
  reincarnate: (id: number, body: ReincarnateBody) => ok(character(id).lives.reincarnate.post(body)),
  /** Past lives at a glance: the account's (each character's totals, and the sums), one character's. */
  pastLives: () => ok(server['past-lives'].get()),
  characterPastLives: (id: number) => ok(character(id)['past-lives'].get()),
  /** Each saga's quests, done or not and on what, in the current life. */
  sagas: (id: number) => ok(character(id).sagas.get()),

  routes: (page: { limit: number; offset: number }): Promise<RoutePage> => ok(server.routes.get({ query: page })),
  route: (id: number) => ok(server.routes({ id }).get()),
  createRoute: (body: RouteInputBody) => ok(server.routes.post(body)),
  updateRoute: (id: number, body: RouteInputBody) => ok(server.routes({ id }).put(body)),
  deleteRoute: (id: number) => ok(server.routes({ id }).delete()),
  navigation: (characterId: number, routeId: number, match: MatchMode) =>
    ok(server.navigation.get({ query: { characterId, routeId, match } })),

  /**
   * Asks for the current password; every other session and every plugin token end. A 401 is the
   * current password being wrong, or the session having ended: the caller tells them apart.
   */
  changePassword: (currentPassword: string, newPassword: string) =>
    ok(server.account.password.put({ currentPassword, newPassword }), 'throw'),
  tokens: () => ok(server.account.tokens.get()),
  settings: () => ok(server.account.settings.get()),
  putSettings: (shareQuestTimes: boolean) => ok(server.account.settings.put({ shareQuestTimes })),
  revokeToken: (id: number) => ok(server.account.tokens({ id }).delete()),
  /** Every session (this one too) and every plugin token of the account end. */
  signOutEverywhere: () => ok(server.account.sessions.delete()),

  /** Where everything of the account downloads as one JSON file (an ordinary link). */
  exportAccountUrl: () => '/api/account/export',
  /** Where a character's completions download as CSV (an ordinary link). */
  completionsCsvUrl: (id: number) => `/api/characters/${encodeURIComponent(String(id))}/completions/csv`,
  /** A CSV of completions: a preview (nothing written) unless `confirm`. */
  importCompletions: (id: number, body: CompletionsImport) => ok(character(id).completions.import.post(body)),

  groups: () => ok(server.groups.get()),
  createGroup: (name: string) => ok(server.groups.post({ name })),
  group: (id: number) => ok(server.groups({ id }).get()),
  /** The group, or null when the caller is not a member (any more), or it is gone: the server's 404. */
  groupIfMember: (id: number) => noneIf404(ok(server.groups({ id }).get())),
  renameGroup: (id: number, name: string) => ok(server.groups({ id }).patch({ name })),
  deleteGroup: (id: number) => ok(server.groups({ id }).delete()),
  /** A link for the group: `uses` players (1: one-time; more: the guild's link), for `days`. */
  inviteToGroup: (id: number, rotate = false, terms: { uses?: number; days?: number } = {}) =>
    ok(server.groups({ id }).invites.post(terms, { query: rotate ? { rotate: 'true' } : {} })),
  endInvite: (id: number, inviteId: number) => ok(server.groups({ id }).invites({ inviteId }).delete()),
  /** A signed-in account joins the group of a group's invite. */
  joinGroup: (code: string) => ok(server.groups.join.post({ code })),
  /** Leave (your own id) or remove a member (the owner, or an officer). */
  removeMember: (id: number, userId: number) => ok(server.groups({ id }).members({ userId }).delete()),
  /** The owner names an officer, or makes an officer a member again. */
  setMemberRole: (id: number, userId: number, role: 'officer' | 'member') =>
    ok(server.groups({ id }).members({ userId }).role.put({ role })),
  handOnGroup: (id: number, userId: number) => ok(server.groups({ id }).owner.put({ userId })),
  shareWithGroup: (id: number, characterId: number) => ok(server.groups({ id }).characters({ characterId }).put()),
  withdrawFromGroup: (id: number, characterId: number) =>
    ok(server.groups({ id }).characters({ characterId }).delete()),
  groupNeeds: (id: number, setting: StepSetting) => ok(server.groups({ id }).needs.get({ query: { setting } })),
  party: (id: number, characters: readonly number[], setting: StepSetting) =>
    ok(server.groups({ id }).party.get({ query: { characters: characters.join(','), setting } })),
  /** Server-sent events of a group: `change` (a shared character's data), `group` (re-read), `removed`. */
  groupEventsUrl: (id: number) => `/api/groups/${encodeURIComponent(String(id))}/events`,

  /** The whole catalog, public; fetched once per page load. */
  quests: () => ok(firstRead('/api/quests', () => server.quests.get())),
  /**
   * The catalog with its version (the part of its ETag before the dot): a grid's letters follow
   * one version of the catalog's rows, and say which.
   */
  questsVersioned: async () => {
    let version: string | null = null
    const answer = await ok(
      server.quests.get().then((call) => {
        version = /^(?:W\/)?"([^."]*)\./.exec(call.response?.headers.get('etag') ?? '')?.[1] ?? null
        return call
      }),
    )
    return { quests: answer.quests, version }
  },

  /** Every character of the account with what it has done of every quest, compactly. */
  accountGrid: () => ok(server.account.grid.get()),
  /** How the account looks at its grids: its columns, its filters (the same on every device). */
  gridView: () => ok(server.account.grid.view.get()),
  /** The fields sent replace theirs. */
  putGridView: (change: GridViewChange) => ok(server.account.grid.view.put(change)),
  groupGrid: (id: number) => ok(server.groups({ id }).grid.get()),
  /** A character shared with the group, read-only (404 when the group does not see it). */
  memberTracker: (id: number, characterId: number) =>
    ok(server.groups({ id }).characters({ characterId }).tracker.get()),
  /** Which of the account's groups see a character (none for a character no group of theirs sees). */
  groupsSeeing: (characterId: number) => ok(server.groups.seeing({ characterId }).get()),
  /** Where the catalog comes from (the health check's `catalog`, public); thrown when the server is unwell. */
  catalogSource: async () => (await ok(server.health.get(), 'throw')).catalog,
  sharedView: (token: string) => ok(server.share({ token }).get()),
}
