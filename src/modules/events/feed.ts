// The change feed: every write to a character (completions, progress, profile, live, build,
// lives) is published here by the route that made it, from either API, and the website's
// event streams listen. In memory: it covers every writer of this process (the CLI writes no
// character data); a second server process on the same file would need the polling fallback.
export const CHANGE_KINDS = ['completions', 'progress', 'character', 'live', 'build', 'lives'] as const
export type ChangeKind = (typeof CHANGE_KINDS)[number]

export interface Change {
  characterId: number
  what: ChangeKind
}

type Listener = (change: Change) => void

export class ChangeFeed {
  private readonly listeners = new Map<number, Set<Listener>>()
  /** Listeners of every character's changes (a group's stream, which follows many characters). */
  private readonly everyone = new Set<Listener>()

  publish(characterId: number, what: ChangeKind): void {
    for (const listener of this.everyone) listener({ characterId, what })
    const listeners = this.listeners.get(characterId)
    if (!listeners) return
    for (const listener of listeners) listener({ characterId, what })
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
