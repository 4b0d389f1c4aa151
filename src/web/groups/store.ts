// A group's page state, as signals: the group as last read, whether the account was removed from
// it, the live stream's mode, the grid once loaded, and what its actions said. Every change (share,
// roles, links, rename) runs through act, says what it did, and reads the group again; leaving or
// deleting it goes on to the groups list.
import { signal } from '@preact/signals'
import { act, createFeedback, goOnTo } from '../action'
import { api, type GroupDetail } from '../api'
import type { GridStore } from '../grid/store'
import type { LiveMode } from '../live'

export type GroupStore = ReturnType<typeof createGroupStore>

export function createGroupStore(initial: GroupDetail) {
  const feedback = createFeedback()
  const group = signal(initial)
  const removed = signal(false)
  const liveMode = signal<LiveMode>('off')
  /** The grid, once loaded: it reads again with the page (one stream for both). */
  const grid = signal<GridStore | null>(null)
  /** A new invite link, shown once. */
  const link = signal<string | null>(null)

  /** Reads the group again (and the grid); `removed` when the caller is not a member any more. */
  async function refresh(): Promise<'removed' | undefined> {
    void grid.peek()?.refresh()
    const read = await act(feedback, () => api.groupIfMember(initial.id), { quiet: true })
    if (!read.ok) return undefined
    if (read.value === null) return 'removed'
    group.value = read.value
    return undefined
  }

  /** Runs a change, shows what it did, and re-reads the group. */
  async function change(run: () => Promise<unknown>, done: string): Promise<void> {
    if ((await act(feedback, run, { quiet: true, notice: () => done })).ok) await refresh()
  }

  /** Leaves the group (`leave`) or deletes it, then goes to the groups list. */
  async function leaveFor(run: () => Promise<unknown>): Promise<void> {
    if ((await act(feedback, run, { quiet: true })).ok) goOnTo(feedback, '/groups')
  }

  async function makeLink(rotate: boolean, terms: { uses: number; days: number }): Promise<void> {
    const invite = await act(feedback, () => api.inviteToGroup(initial.id, rotate, terms), {
      quiet: true,
      notice: (made) => {
        const admits = made.maxUses === 1 ? 'one player' : `up to ${made.maxUses} players`
        return rotate
          ? `Every earlier link has ended (${made.revoked}). A new link for ${admits} is shown.`
          : `A new link for ${admits} is shown.`
      },
    })
    if (invite.ok) link.value = location.origin + invite.value.path
  }

  return { feedback, group, removed, liveMode, grid, link, refresh, change, leaveFor, makeLink }
}
