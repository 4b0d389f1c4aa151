// The one client of the website's same-origin cookie API (CONTRACT.md "The website"). Every
// request of the pages goes through here; the types come from the server's own schemas, so a
// change there is a type error here. (`import type` only: no server code reaches the bundle.)
import type { Static } from 'elysia'
import type { User as UserSchema } from '../modules/auth/model'
import type { TokenListItem } from '../modules/auth/service'
import type {
  BuildDocument,
  ImportedBuild as ImportedBuildSchema,
  Life as LifeSchema,
  LiveBuild as LiveBuildSchema,
  PlannedBuild as PlannedBuildSchema,
} from '../modules/builds/model'
import type { QuestRow as QuestRowSchema } from '../modules/catalog/model'
import type { Character as CharacterSchema } from '../modules/characters/model'
import type { StoredCompletion } from '../modules/completions/model'
import type { ReincarnateBody } from '../modules/lives/model'
import type { ProgressPut as ProgressPutSchema, Progress as ProgressSchema } from '../modules/progress/model'
import type {
  Navigation as NavigationSchema,
  RouteDetail as RouteDetailSchema,
  RouteInputBody,
  RouteListItem as RouteListItemSchema,
} from '../modules/routes/model'
import type { Difficulty, Setting } from '../rules/completion'

export type User = Static<typeof UserSchema>
export type QuestRow = Static<typeof QuestRowSchema>
export type Progress = Static<typeof ProgressSchema>
export type ProgressPatch = Omit<Static<typeof ProgressPutSchema>, 'completions'>
export type Completion = Static<typeof StoredCompletion>
/** A character as the website lists it: the plugin's Character plus distinct quests done. */
export type Character = Static<typeof CharacterSchema> & { questsDone?: number }

export type { BuildDocument, ReincarnateBody, RouteInputBody, TokenListItem }
export type Life = Static<typeof LifeSchema>
export type LiveBuild = Static<typeof LiveBuildSchema>
export type PlannedBuild = Static<typeof PlannedBuildSchema>
export type ImportedBuild = Static<typeof ImportedBuildSchema>
export type RouteListItem = Static<typeof RouteListItemSchema>
export type RouteDetail = Static<typeof RouteDetailSchema>
export type Navigation = Static<typeof NavigationSchema>
export type MatchMode = Navigation['match']

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

export interface SharedView {
  character: Character
  progress: Progress
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

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  let response: Response
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  } catch {
    throw new ApiError(0, 'The server cannot be reached. Check that it is running and that you are on its network.')
  }
  const text = await response.text()
  let parsed: unknown
  try {
    parsed = text === '' ? undefined : JSON.parse(text)
  } catch {
    parsed = undefined
  }
  if (!response.ok) {
    const sentence =
      typeof parsed === 'object' && parsed !== null && 'error' in parsed && typeof parsed.error === 'string'
        ? parsed.error
        : `The server answered ${response.status} ${response.statusText}.`.replace(' .', '.')
    throw new ApiError(response.status, sentence)
  }
  return parsed as T
}

const characterPath = (id: number) => `/api/characters/${encodeURIComponent(String(id))}`
const routePath = (id: number) => `/api/routes/${encodeURIComponent(String(id))}`

export const api = {
  session: () => call<{ user: User }>('GET', '/api/session'),
  signIn: (identifier: string, password: string) =>
    call<{ user: User }>('POST', '/api/session', { identifier, password }),
  signOut: () => call<{ ok: true }>('DELETE', '/api/session'),

  characters: () => call<{ characters: Character[] }>('GET', '/api/characters'),
  character: (id: number) => call<Character>('GET', characterPath(id)),
  progress: (id: number) => call<Progress>('GET', `${characterPath(id)}/progress`),
  /** Partial: send only the fields that changed (the plugin reads the same fields). */
  putProgress: (id: number, patch: ProgressPatch) => call<Progress>('PUT', `${characterPath(id)}/progress`, patch),
  logCompletion: (id: number, key: CompletionKey) =>
    call<{ ok: true; completion: Completion }>('POST', `${characterPath(id)}/completions`, key),
  deleteCompletion: (id: number, key: CompletionKey) =>
    call<{ ok: true; deleted: number }>('DELETE', `${characterPath(id)}/completions`, key),
  /** Server-sent events: `change` each time the character's data changes, from any client. */
  eventsUrl: (id: number) => `${characterPath(id)}/events`,

  /** POST …/share: a new share token (the old link stops working) and sharing on. */
  share: (id: number) => call<Character>('POST', `${characterPath(id)}/share`),
  /** DELETE …/share: the share link answers 404 until shared again. */
  unshare: (id: number) => call<Character>('DELETE', `${characterPath(id)}/share`),

  /** The live snapshot, or null before the plugin sent one (the server's 404). */
  live: async (id: number): Promise<LiveBuild | null> => {
    try {
      return await call<LiveBuild>('GET', `${characterPath(id)}/live`)
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return null
      throw e
    }
  },
  build: (id: number) => call<PlannedBuild>('GET', `${characterPath(id)}/build`),
  promoteLive: (id: number) => call<PlannedBuild>('POST', `${characterPath(id)}/live/promote-to-planned`),
  /** A DDO Builder `.DDOBuild` file's text: replaces the planned build; answers it with `warnings`. */
  importBuild: (id: number, xml: string) => call<ImportedBuild>('POST', `${characterPath(id)}/build/import`, { xml }),
  /** Where the planned build downloads as a `.DDOBuild` file (an ordinary link: the browser saves it). */
  exportBuildUrl: (id: number) => `${characterPath(id)}/build/export`,
  lives: (id: number) => call<{ lives: Life[] }>('GET', `${characterPath(id)}/lives`),
  reincarnate: (id: number, body: ReincarnateBody) =>
    call<Life>('POST', `${characterPath(id)}/lives/reincarnate`, body),

  routes: (page: { limit: number; offset: number }) =>
    call<RoutePage>('GET', `/api/routes?limit=${page.limit}&offset=${page.offset}`),
  route: (id: number) => call<RouteDetail>('GET', routePath(id)),
  createRoute: (body: RouteInputBody) => call<RouteDetail>('POST', '/api/routes', body),
  updateRoute: (id: number, body: RouteInputBody) => call<RouteDetail>('PUT', routePath(id), body),
  deleteRoute: (id: number) => call<{ ok: true }>('DELETE', routePath(id)),
  navigation: (characterId: number, routeId: number, match: MatchMode) =>
    call<Navigation>('GET', `/api/navigation?characterId=${characterId}&routeId=${routeId}&match=${match}`),

  /** Asks for the current password; every other session and every plugin token end. */
  changePassword: (currentPassword: string, newPassword: string) =>
    call<{ ok: true }>('PUT', '/api/account/password', { currentPassword, newPassword }),
  tokens: () => call<{ tokens: TokenListItem[] }>('GET', '/api/account/tokens'),
  revokeToken: (id: number) => call<{ ok: true }>('DELETE', `/api/account/tokens/${encodeURIComponent(String(id))}`),
  /** Every session (this one too) and every plugin token of the account end. */
  signOutEverywhere: () => call<{ ok: true }>('DELETE', '/api/account/sessions'),

  /** The whole catalog, public; fetched once per page load. */
  quests: () => call<{ count: number; quests: QuestRow[] }>('GET', '/api/quests'),
  sharedView: (token: string) => call<SharedView>('GET', `/api/share/${encodeURIComponent(token)}`),
}
