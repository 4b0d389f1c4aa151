// What changes a group itself (its name, members, shared characters, or its end), for the open
// streams of the group's pages: they re-read, and a stream whose member is out ends. In memory, as
// the character change feed is (src/modules/events/feed.ts).
export const GROUP_CHANGE_KINDS = ['group', 'members', 'shares', 'deleted'] as const
export type GroupChangeKind = (typeof GROUP_CHANGE_KINDS)[number]

type Listener = (what: GroupChangeKind) => void

export class GroupFeed {
  private readonly listeners = new Map<number, Set<Listener>>()

  publish(groupId: number, what: GroupChangeKind): void {
    for (const listener of this.listeners.get(groupId) ?? []) listener(what)
  }

  subscribe(groupId: number, listener: Listener): () => void {
    let listeners = this.listeners.get(groupId)
    if (!listeners) this.listeners.set(groupId, (listeners = new Set()))
    listeners.add(listener)
    return () => {
      listeners.delete(listener)
      if (listeners.size === 0) this.listeners.delete(groupId)
    }
  }
}
