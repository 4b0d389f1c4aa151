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
  QuestsPreview as QuestsPreviewSchema,
} from '../modules/builds/importModel'
import type { Life as LifeSchema, ReincarnateBody } from '../modules/builds/lives/model'
import type {
  BuildDocument,
  LiveBuild as LiveBuildSchema,
  PlannedBuild as PlannedBuildSchema,
} from '../modules/builds/model'
import type { QuestListRow as QuestRowSchema } from '../modules/catalog/model'
import type { Character as CharacterSchema } from '../modules/characters/model'
import type { RemovedCompletion as RemovedCompletionSchema, StoredCompletion } from '../modules/completions/model'
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
import type { Difficulty, Setting } from '../rules/quests/completion'
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

export type { BuildDocument, ReincarnateBody, RouteInputBody, TokenListItem }
export type CompletionsImport = Static<typeof CompletionsImportBody>
export type CompletionsImportResult = Static<typeof ImportPreviewSchema>
export type Life = Static<typeof LifeSchema>
export type LiveBuild = Static<typeof LiveBuildSchema>
export type PlannedBuild = Static<typeof PlannedBuildSchema>
export type ImportedBuild = Static<typeof ImportedBuildSchema>
export type BuildImport = Static<typeof BuildImportBody>
export type BuildImportPreview = Static<typeof BuildImportPreviewSchema>
export type QuestsPreview = Static<typeof QuestsPreviewSchema>
export type RouteListItem = Static<typeof RouteListItemSchema>
export type RouteDetail = Static<typeof RouteDetailSchema>
export type Navigation = Static<typeof NavigationSchema>
export type MatchMode = Navigation['match']
export type CharacterPastLives = Static<typeof CharacterPastLivesSchema>
export type AccountPastLives = Static<typeof AccountPastLivesSchema>

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
type On401 = 'sign-in' | 'throw'

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
    throw new ApiError(0, UNREACHABLE)
  }
  if (answer.error === null) return answer.data as NonNullable<A['data']>
  // Eden answers a fetch that failed (no server, no network) with an error and no response.
  const { response } = answer
  if (!response) throw new ApiError(0, UNREACHABLE)
  if (response.status === 401 && on401 === 'sign-in') {
    location.replace(loginPath(location.pathname + location.search))
    return new Promise<never>(() => {})
  }
  throw new ApiError(response.status, sentenceOf(answer.error, response))
}

// Same origin: the cookie goes with every call (fetch's default), and the paths are the app's.
// `parseDate: false`: Eden would turn every ISO timestamp into a Date; the routes' types (and the
// pages) say they are strings.
const server = treaty<App>(typeof location === 'undefined' ? 'http://localhost' : location.origin, {
  parseDate: false,
}).api
const character = (id: number) => server.characters({ id })

export const api = {
  session: (on401: On401 = 'sign-in') => ok(server.session.get(), on401),
  signIn: (identifier: string, password: string) => ok(server.session.post({ identifier, password }), 'throw'),
  signOut: () => ok(server.session.delete()),

  characters: () => ok(server.characters.get()),
  character: (id: number) => ok(character(id).get()),
  /** One life's tracker state; the current life without `life`. */
  progress: (id: number, life?: number) =>
    ok(character(id).progress.get(life === undefined ? {} : { query: { life } })),
  /** What to run next, ranked by XP per minute or by the next favor reward. */
  next: (id: number, by: 'xp' | 'favor') => ok(character(id).next.get({ query: { by, limit: 8 } })),
  /** The character's own times from every run (any life). */
  questTimes: (id: number) => ok(character(id)['quest-times'].get()),
  /** Partial: send only the fields that changed (the plugin reads the same fields). */
  putProgress: (id: number, patch: ProgressPatch) => ok(character(id).progress.put(patch)),
  logCompletion: (id: number, key: CompletionKey) => ok(character(id).completions.post(key)),
  /** Answers what it removed, whole (`removed`): restoreCompletions puts it back. */
  deleteCompletion: (id: number, key: CompletionKey) => ok(character(id).completions.delete(key)),
  restoreCompletions: (id: number, completions: RemovedCompletion[]) =>
    ok(character(id).completions.restore.post({ completions })),
  /** Server-sent events: `change` each time the character's data changes, from any client. */
  eventsUrl: (id: number) => `/api/characters/${encodeURIComponent(String(id))}/events`,

  /** POST …/share: a new share token (the old link stops working) and sharing on. */
  share: (id: number) => ok(character(id).share.post()),
  /** DELETE …/share: the share link answers 404 until shared again. */
  unshare: (id: number) => ok(character(id).share.delete()),

  /** The live snapshot, or null before the plugin sent one (the server's 404). */
  live: async (id: number): Promise<LiveBuild | null> => {
    try {
      return await ok(character(id).live.get())
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return null
      throw e
    }
  },
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

  /** The whole catalog, public; fetched once per page load. */
  quests: () => ok(server.quests.get()),
  sharedView: (token: string) => ok(server.share({ token }).get()),
}
