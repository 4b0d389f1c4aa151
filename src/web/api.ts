// The one client of the website's same-origin cookie API (CONTRACT.md "The website"). Every
// request of the pages goes through here; the types come from the server's own schemas, so a
// change there is a type error here. (`import type` only: no server code reaches the bundle.)
import type { Static } from 'elysia'
import type { User as UserSchema } from '../modules/auth/model'
import type { QuestRow as QuestRowSchema } from '../modules/catalog/model'
import type { Character as CharacterSchema } from '../modules/characters/model'
import type { StoredCompletion } from '../modules/completions/model'
import type { ProgressPut as ProgressPutSchema, Progress as ProgressSchema } from '../modules/progress/model'
import type { Difficulty, Setting } from '../rules/completion'

export type User = Static<typeof UserSchema>
export type QuestRow = Static<typeof QuestRowSchema>
export type Progress = Static<typeof ProgressSchema>
export type ProgressPatch = Omit<Static<typeof ProgressPutSchema>, 'completions'>
export type Completion = Static<typeof StoredCompletion>
/** A character as the website lists it: the plugin's Character plus distinct quests done. */
export type Character = Static<typeof CharacterSchema> & { questsDone?: number }

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

  /** The whole catalog, public; fetched once per page load. */
  quests: () => call<{ count: number; quests: QuestRow[] }>('GET', '/api/quests'),
  share: (token: string) => call<SharedView>('GET', `/api/share/${encodeURIComponent(token)}`),
}
