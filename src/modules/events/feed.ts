// The change feed: every write to a character (completions, progress, profile, live, build,
// lives) is published here by the service that made it, from either API, and the website's
// event streams listen. In memory: it covers every writer of this process (the CLI writes no
// character data); a second server process on the same file would need the polling fallback.
//
// It also numbers each character's changes: the version a write moves to is the character's
// ETag (src/http/etag.ts) and the tag its event carries, so a client that holds the answer of
// one version applies the next event's change to it, and sees a gap when a number is skipped.
import type { Static } from 'elysia'
import type { StoredCompletion } from '../completions/model'
import type { Progress } from '../progress/model'

export const CHANGE_KINDS = ['completions', 'progress', 'character', 'live', 'build', 'lives'] as const
export type ChangeKind = (typeof CHANGE_KINDS)[number]

/** Which completion: its name, remake and setting (unique within one quest life). */
type StoredCompletionJson = Static<typeof StoredCompletion>

export type CompletionKey = Pick<StoredCompletionJson, 'name' | 'difficulty' | 'setting'>

/**
 * The progress fields a character's own row decides (everything of a progress answer but the
 * completions, the quests done and the life shown): a write that changed only the row sends them.
 */
export type ProgressHead = Omit<Static<typeof Progress>, 'completions' | 'completedQuests' | 'life'>

/**
 * What a write changed in the answers a page holds, so it can apply it instead of re-reading:
 * - `upsert`: a completion of quest life `life` (a progress answer's `life.questLife`) is now
 *   `completion`, at `position` in that quest life's list (most recent first), replacing the one
 *   of the same name, remake and setting if there was one;
 * - `remove`: those completions of quest life `life` are gone;
 * - `head`: only the character's own fields changed, the completions and lives did not.
 * A change without one (an import, a tracker's whole set, a reincarnation) is re-read.
 */
export type ChangeDelta =
  | { kind: 'upsert'; life: number; completion: StoredCompletionJson; position: number }
  | { kind: 'remove'; life: number; removed: CompletionKey[] }
  | { kind: 'head'; head: ProgressHead }

/** What a listener receives: one object per write, shared by every listener of the character. */
export interface Change {
  characterId: number
  what: ChangeKind
  /** The character's ETag after this write (what a progress read answers from now on). */
  tag: string
  /** What changed; computed once, on the first call, and only when someone listens. */
  delta(): ChangeDelta | null
}

type Listener = (change: Change) => void

/**
 * A character's tag is `"<feed>.<outside>.<version>"`: the feed's own random prefix (a restart, or
 * another app on another file, never reuses a tag), how many times another connection (the CLI)
 * has written to the database, and the number of this process's writes to the character. Pages
 * read the version out of it (src/web/tracker/changes.ts tagParts).
 */
export class ChangeFeed {
  private readonly listeners = new Map<number, Set<Listener>>()
  /** Listeners of every character's changes (a group's stream, which follows many characters). */
  private readonly everyone = new Set<Listener>()
  /** Each character's version: how many writes this process published for it. */
  private readonly versions = new Map<number, number>()
  /** The same for routes, whose steps a navigation answer shows. */
  private readonly routeVersions = new Map<number, number>()
  /** Random per feed: tags of another process or app never match this one's. */
  readonly nonce = Bun.randomUUIDv7().slice(-12)

  /**
   * `outside`: a number that changes whenever another connection commits to the database
   * (SQLite's `PRAGMA data_version`); a constant where nothing else writes (tests, the CLI).
   */
  constructor(private readonly outside: () => number = () => 0) {}

  /**
   * After a write to the character commits: its version moves on, and its listeners get the
   * change. `delta` says what changed (see ChangeDelta); it runs only when someone listens.
   */
  publish(characterId: number, what: ChangeKind, delta?: () => ChangeDelta | null): void {
    const version = (this.versions.get(characterId) ?? 0) + 1
    this.versions.set(characterId, version)
    const listeners = this.listeners.get(characterId)
    if (!listeners && this.everyone.size === 0) return
    let computed: ChangeDelta | null | undefined
    const change: Change = {
      characterId,
      what,
      tag: this.tagOf(version),
      delta: () => {
        if (computed === undefined) computed = delta?.() ?? null
        return computed
      },
    }
    for (const listener of this.everyone) listener(change)
    for (const listener of listeners ?? []) listener(change)
  }

  /** The character's ETag: it changes with every write to the character, from any connection. */
  characterTag(characterId: number): string {
    return this.tagOf(this.versions.get(characterId) ?? 0)
  }

  private tagOf(version: number): string {
    return `"${this.nonce}.${this.outside()}.${version}"`
  }

  /** After a route's steps or name changed (or it was deleted). */
  routeChanged(routeId: number): void {
    this.routeVersions.set(routeId, (this.routeVersions.get(routeId) ?? 0) + 1)
  }

  /** The ETag of an answer built from one character and one route (navigation). */
  navigationTag(characterId: number, routeId: number): string {
    const character = this.versions.get(characterId) ?? 0
    const route = this.routeVersions.get(routeId) ?? 0
    return `"${this.nonce}.${this.outside()}.${character}.r${routeId}.${route}"`
  }

  /**
   * The ETag of an answer built from an account's characters (the list): their ids and versions,
   * hashed. The account is part of it, so two accounts' lists never share a tag.
   */
  listTag(userId: number, characterIds: readonly number[]): string {
    let text = `${userId}`
    for (const id of characterIds) text += `,${id}.${this.versions.get(id) ?? 0}`
    return `"${this.nonce}.${this.outside()}.u${userId}.${Bun.hash(text).toString(36)}"`
  }

  /**
   * The ETag of an answer built from several characters' data and from what `scope` names (a
   * group's needs: the group, the setting, the catalog, when each character was shared): the
   * characters' versions, hashed with it.
   */
  charactersTag(scope: string, characterIds: readonly number[]): string {
    let text = scope
    for (const id of characterIds) text += `,${id}.${this.versions.get(id) ?? 0}`
    return `"${this.nonce}.${this.outside()}.${Bun.hash(text).toString(36)}"`
  }

  /** Every character's changes; returns the function that stops listening. */
  subscribeAll(listener: Listener): () => void {
    this.everyone.add(listener)
    return () => {
      this.everyone.delete(listener)
    }
  }

  /** Returns the function that stops listening. */
  subscribe(characterId: number, listener: Listener): () => void {
    let listeners = this.listeners.get(characterId)
    if (!listeners) this.listeners.set(characterId, (listeners = new Set()))
    listeners.add(listener)
    return () => {
      listeners.delete(listener)
      if (listeners.size === 0) this.listeners.delete(characterId)
    }
  }

  /** How many streams are open (for /info and tests). */
  get listenerCount(): number {
    let count = this.everyone.size
    for (const listeners of this.listeners.values()) count += listeners.size
    return count
  }
}
