// One way for a page to run what a player asked of it (a save, a revoke, a join): the page's last
// error cleared, its busy flag up while the action runs, the notice it earns shown, and what went
// wrong said in the server's sentence (errorMessage; a session that ended has already sent the
// page to sign in: api.ts). The pages' stores hold a Feedback and run their actions through act.
import { type Signal, signal } from '@preact/signals'
import { useMemo } from 'preact/hooks'
import { errorMessage } from './api'

/** What a page says of its actions: the last error, the last notice, and whether one is running. */
export interface Feedback {
  error: Signal<string | null>
  notice: Signal<string | null>
  busy: Signal<boolean>
}

export function createFeedback(): Feedback {
  return { error: signal(null), notice: signal(null), busy: signal(false) }
}

/** A component's own Feedback, made on its first render and kept for its life. */
export const useFeedback = (): Feedback => useMemo(createFeedback, [])

export interface ActOptions<T> {
  /** The notice the action earns, from its result (none when it returns null). */
  notice?: (result: T) => string | null
  /** A failure the page says its own way (a 401 that means a wrong password); null: the server's sentence. */
  explain?: (error: unknown) => string | null | Promise<string | null>
  /** Leave the busy flag alone (an action that needs no waiting button, such as a switch). */
  quiet?: boolean
  /** True once the page has asked again (a newer read, the page left): this end then says nothing. */
  stale?: () => boolean
}

/** How an action ended: its result, or a failure the page has said (or a stale end it has not). */
export type Outcome<T> = { ok: true; value: T } | { ok: false }

/** Runs `work` for the page: its result, or a failure (the page then says why). */
export async function act<T>(
  feedback: Feedback,
  work: () => Promise<T>,
  options: ActOptions<T> = {},
): Promise<Outcome<T>> {
  feedback.error.value = null
  if (!options.quiet) feedback.busy.value = true
  try {
    const result = await work()
    if (options.stale?.()) return { ok: false }
    const notice = options.notice?.(result) ?? null
    if (notice !== null) feedback.notice.value = notice
    return { ok: true, value: result }
  } catch (e) {
    if (options.stale?.()) return { ok: false }
    feedback.error.value = (await options.explain?.(e)) ?? errorMessage(e)
    return { ok: false }
  } finally {
    if (!options.quiet) feedback.busy.value = false
  }
}

/**
 * After an action that leads to another page (a save, a sign-in, a join): go there with the
 * page's button still busy, so that a second press meanwhile cannot send the action again.
 */
export function goOnTo(feedback: Feedback, path: string, { replace = false } = {}): void {
  feedback.busy.value = true
  if (replace) location.replace(path)
  else location.assign(path)
}
