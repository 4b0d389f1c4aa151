// The tracker's state, in one place: the catalog, the character's progress and the local filters
// (search, hide completed, sort) as signals, the model computed from them (model.ts), and the
// player's actions. Changes to the saved filters are applied at once and then PUT (partial)
// through the write queue (writes.ts), so the page never waits on the network; completions are
// logged or deleted the same way. The read-only share view uses the same store with `save` off:
// its filters change only the view.
import { batch, signal } from '@preact/signals'
import type { VersionFlag, VersionTier } from '../../rules/quests/tracker'
import {
  api,
  type Character,
  type Completion,
  errorMessage,
  type NextAnswer,
  type Progress,
  type ProgressPatch,
  type QuestRow,
} from '../api'
import type { ChangeEvent, LiveMode } from '../live'
import { type Delivered, QUEUED, queuedWrites, sendOrQueue } from '../offline/outbox'
import { isWaiting, type QueuedChange } from '../offline/queue'
import { rememberedFlag } from '../remembered'
import { applyChange, tagParts, withAdded, withRemoved } from './changes'
import { type Row, type Sort, type TickSetting, toRows, trackerModel } from './model'
import { type PendingRestore, patchProgress, sameCompletion, withLevels, withQueued } from './queued'
import { boxKey, createUndo } from './undo'
import { writeQueue } from './writes'

export interface StoreOptions {
  character: Character
  progress: Progress
  /** The progress answer's ETag (api.progressTagged): the version the events continue from. */
  tag?: string | null
  quests: readonly QuestRow[]
  /**
   * What to run next by XP, read with the rest of the page's first reads (pages/Tracker.tsx): the
   * panel's first read, instead of one started once the page is drawn.
   */
  next?: Promise<NextAnswer>
  /**
   * That read's answer when it was in hand as the page was drawn (with the other reads, or on the
   * server: src/modules/web/firstScreen.ts): the panel is drawn with it at once, not a frame later.
   */
  nextNow?: NextAnswer
  /** false for the share page: nothing is sent to the server. */
  save: boolean
}

export type TrackerStore = ReturnType<typeof createTrackerStore>

export function createTrackerStore(options: StoreOptions) {
  const characterId = options.character.id
  /** Undos sent whose completions the server has not yet been seen to hold (queued.ts). */
  let restores: PendingRestore[] = []
  /**
   * Changes made on the page whose write has no answer yet (sent, or waiting for the one before
   * it): an event or read meanwhile may be of an earlier write, from before them.
   */
  let unanswered: QueuedChange[] = []
  /**
   * This character's changes still waiting in the write queue (offline/outbox.ts), in order, then
   * the ones not yet answered and the undos in flight: all stay on the page over what the server
   * says until it has them.
   */
  const waiting = (): (QueuedChange | PendingRestore)[] =>
    options.save
      ? [
          ...queuedWrites.value.filter((w) => w.characterId === characterId && isWaiting(w)).map((w) => w.change),
          ...unanswered,
          ...restores,
        ]
      : []
  /** Undos whose completions `held` (what the server says) has are no longer pending. */
  function restoresSeen(held: readonly Completion[]): void {
    if (restores.length === 0) return
    restores = restores
      .map((r) => ({ ...r, completions: r.completions.filter((c) => !held.some((h) => sameCompletion(h, c))) }))
      .filter((r) => r.completions.length > 0)
  }
  const rows = signal<Row[]>(toRows(options.quests))
  const character = signal<Character>(options.character)
  const progress = signal<Progress>(withQueued(options.progress, waiting()))
  const search = signal('')
  /** Kept in this browser per character, like the progress filters are kept per character. */
  const hideCompleted = rememberedFlag(`qt.hideCompleted.${options.character.id}`)
  const sort = signal<Sort>({ key: 'level', descending: false })
  /** The last error sentence of a save, shown in the page's alert region. */
  const error = signal<string | null>(null)
  /** A short polite announcement (saved, live update received). */
  const notice = signal<string | null>(null)
  const live = signal(true)
  const liveMode = signal<LiveMode>('off')
  /**
   * Counts the progress answers taken from the server (a read, an event's change, a save's
   * answer): what the server holds moved. A read that depends on it (what to run next) is made
   * once per stored change, not also for the page's own change before the server has it.
   */
  const stored = signal(0)

  const model = trackerModel({ rows, progress, search, hideCompleted, sort })
  const { patrons, packs } = model

  /** Shows what went wrong (a session that ended has already sent the page to sign in: api.ts). */
  function report(e: unknown): void {
    error.value = errorMessage(e)
  }

  /**
   * The character's version the progress above holds (its ETag, src/modules/events/feed.ts): an
   * event that continues it is applied here; one that skips a number means a missed change.
   */
  let tag = tagParts(options.tag)

  let firstNext = options.next
  /** The load's read of what to run next, once, for a panel ranking by XP; else null (the panel reads). */
  function takeFirstNext(by: NextAnswer['by']): Promise<NextAnswer> | null {
    const read = by === 'xp' ? firstNext : undefined
    firstNext = undefined
    return read ?? null
  }

  /** Whether the page holds the character at version `at` (an ETag) or later: nothing to read. */
  function holds(at: string): boolean {
    const version = tagParts(at)
    return version !== null && tag !== null && version.prefix === tag.prefix && version.version <= tag.version
  }

  /** Takes a progress read from the server, unless a later event has already moved past it. */
  function takeRead(next: Progress, nextTag: string | null): void {
    const read = tagParts(nextTag)
    if (read && tag && read.prefix === tag.prefix && read.version < tag.version) return
    // The same version again (a poll while nothing changed): what the server holds did not move.
    const moved = read === null || tag === null || read.prefix !== tag.prefix || read.version !== tag.version
    tag = read
    restoresSeen(next.completions)
    const before = progress.value.completions.length
    // The changes still waiting in the offline queue stay on the page over what the server holds.
    progress.value = withQueued(next, waiting())
    if (moved) stored.value++
    if (next.completions.length > before && next.completions[0]) {
      notice.value = `Logged: ${next.completions[0].name} (${next.completions[0].setting})`
    }
  }

  const queue = writeQueue({
    read: () => api.progressTagged(characterId),
    take: (next) => takeRead(next.progress, next.tag),
    failed: report,
    succeeded() {
      error.value = null
    },
  })
  const { write } = queue

  /** An untick can be undone for a while (undo.ts): what its deletes removed goes back, on the page at once. */
  const undo = createUndo((removed) => {
    const back: Completion[] = removed.map(({ runs: _runs, runList: _runList, reaperSkulls, ...completion }) => ({
      ...completion,
      reaperSkulls: reaperSkulls ?? null,
    }))
    progress.value = withAdded(progress.value, back)
    const pending: PendingRestore = { kind: 'restore', completions: back }
    restores = [...restores, pending]
    void write(async () => {
      try {
        return await api.restoreCompletions(characterId, removed)
      } catch (e) {
        // Refused: not put back after all (the re-read that follows shows what the server has).
        restores = restores.filter((r) => r !== pending)
        throw e
      }
    })
  })

  /** Re-reads the progress (after the writes in flight); the share page has nothing to read here. */
  async function refresh(): Promise<void> {
    if (options.save) await queue.refresh()
  }

  /**
   * An event of the character's stream: applied when it is the next version after the one held
   * and carries its change (true); else (a gap, or a change to re-read) false, and the page
   * re-reads. One already held is true: nothing to do.
   */
  function applyEvent(event: ChangeEvent): boolean {
    const next = tagParts(event.tag)
    if (!options.save || !next || !tag || next.prefix !== tag.prefix) return false
    if (next.version <= tag.version) return true
    if (next.version !== tag.version + 1 || !event.delta) return false
    const changed = applyChange(progress.value, event.delta, model.index.value)
    tag = next
    if (event.delta.kind === 'upsert') restoresSeen([event.delta.completion])
    // A completion from elsewhere (the game) is announced, as after a read; this page's own
    // tick is on the page already.
    if (event.delta.kind === 'upsert' && changed.completions.length > progress.value.completions.length) {
      notice.value = `Logged: ${event.delta.completion.name} (${event.delta.completion.setting})`
    }
    progress.value = withQueued(changed, waiting())
    stored.value++
    return true
  }

  async function refreshCharacter(): Promise<void> {
    if (!options.save) return
    try {
      character.value = { ...character.value, ...(await api.character(characterId)) }
    } catch {
      // The progress read reports errors; the header keeps what it showed.
    }
  }

  /**
   * A change's send (or its queueing while the server is away: offline/outbox.ts), for the write
   * queue; the change is among the unanswered ones from now until its answer.
   */
  function sender(change: QueuedChange): () => Promise<Delivered | typeof QUEUED> {
    unanswered = [...unanswered, change]
    return async () => {
      try {
        return await sendOrQueue({ characterId, characterName: character.value.name }, change)
      } finally {
        unanswered = unanswered.filter((c) => c !== change)
      }
    }
  }

  /** Changes saved progress fields: at once on the page, then one partial PUT. */
  function saveProgress(patch: ProgressPatch): void {
    progress.value = patchProgress(progress.value, patch)
    if (!options.save) return
    void write(sender({ kind: 'progress', patch }), (answer) => {
      if (answer !== QUEUED && answer !== null && !Array.isArray(answer)) {
        progress.value = answer
        stored.value++
      }
    })
  }

  function setVersionFlag(tier: VersionTier, flag: VersionFlag): void {
    saveProgress({ versionFilter: { ...progress.value.versionFilter, [tier]: flag } })
  }

  function setPatronShown(patron: string, shown: boolean): void {
    const rest = progress.value.excludedPatrons.filter((p) => p !== patron)
    saveProgress({ excludedPatrons: shown ? rest : [...rest, patron] })
  }

  function setAllPatrons(shown: boolean): void {
    saveProgress({ excludedPatrons: shown ? [] : [...patrons.value] })
  }

  function setPackShown(pack: string, shown: boolean): void {
    const next = { ...progress.value.packState }
    if (shown) delete next[pack]
    else next[pack] = false
    saveProgress({ packState: next })
  }

  function setAllPacks(shown: boolean): void {
    const next: Record<string, unknown> = {}
    for (const [pack, value] of Object.entries(progress.value.packState)) if (value !== false) next[pack] = value
    if (!shown) for (const pack of packs.value) next[pack] = false
    saveProgress({ packState: next })
  }

  function setBonus(group: 'xpBoosts' | 'optionalPursuit', key: string, value: true | number | null): void {
    const next = { ...progress.value[group] }
    if (value === null || value === 0) delete next[key]
    else next[key] = value
    saveProgress({ [group]: next })
  }

  /**
   * Ticks or unticks a setting of a remake. Ticking logs (name, tier, setting). Unticking
   * removes what made the box ticked: the remake's own completion and one logged with tier
   * Unknown (which also covers the name's other tiers, as domain rule 2 reads it), and offers
   * to undo that.
   */
  function toggleSetting(row: Row, setting: TickSetting, on: boolean): void {
    if (!options.save) return
    const current = progress.value
    if (on) {
      // Ticked again while its untick can be undone: the undo, not a new run (undo.ts).
      if (undo.retick(boxKey(row.key, setting))) return
      const added: Completion = {
        name: row.name,
        difficulty: row.difficulty,
        setting,
        completedAt: new Date().toISOString(),
        durationSeconds: null,
        xpEarned: null,
        reaperXpEarned: null,
        reaperSkulls: null,
      }
      progress.value = withAdded(current, [added])
      const { name, difficulty, completedAt } = added
      void write(sender({ kind: 'tick', name, difficulty, setting, completedAt }), settled())
      return
    }
    // Among the name's completions (the model's index of this progress), not the whole history.
    const removed = (model.index.value.get(row.name) ?? []).filter(
      (c) => c.setting === setting && (c.difficulty === row.difficulty || c.difficulty === 'Unknown'),
    )
    progress.value = withRemoved(current, removed)
    // Unticked again before the server was seen to hold an undo of it: that undo is not kept up.
    restoresSeen(removed)
    const offer = undo.open(row.name, setting, boxKey(row.key, setting))
    for (const difficulty of new Set(removed.map((c) => c.difficulty))) {
      const send = sender({ kind: 'untick', name: row.name, difficulty, setting })
      void write(async () => {
        const answer = await send()
        if (Array.isArray(answer)) offer.add(answer)
        return answer
      }, settled())
    }
  }

  /**
   * What a tick's answer does: while the event stream is open, nothing (its event brings the
   * stored completion, applied by applyEvent); else nothing given, so the queue re-reads.
   */
  function settled(): (() => void) | undefined {
    return liveMode.value === 'push' ? () => {} : undefined
  }

  /** Sharing: `rotate` makes a new link (the old one dies) and turns sharing on; `stop` turns it off. */
  async function setSharing(action: 'rotate' | 'stop'): Promise<void> {
    if (!options.save) return
    try {
      const answer = action === 'rotate' ? await api.share(characterId) : await api.unshare(characterId)
      character.value = { ...character.value, ...answer }
      error.value = null
      notice.value =
        action === 'rotate' ? 'A new read-only link is ready; the old one no longer works.' : 'Sharing is off.'
    } catch (e) {
      report(e)
    }
  }

  /** Replaces the whole view (the share page's poll). */
  function replace(view: { character: Character; progress: Progress }): void {
    batch(() => {
      character.value = view.character
      // Keep the viewer's own filter choices on a read-only page; take the new completions and level.
      progress.value = options.save
        ? view.progress
        : withLevels({
            ...progress.value,
            completions: view.progress.completions,
            completedQuests: view.progress.completedQuests,
            characterLevel: view.progress.characterLevel,
          })
    })
  }

  return {
    readOnly: !options.save,
    characterId,
    rows,
    character,
    progress,
    search,
    hideCompleted,
    sort,
    error,
    notice,
    live,
    liveMode,
    stored,
    undo,
    ...model,
    refresh,
    refreshCharacter,
    holds,
    takeFirstNext,
    /** The first ranking by XP, when it was in hand as the page was drawn (StoreOptions.nextNow). */
    firstNextNow: options.nextNow ?? null,
    applyEvent,
    saveProgress,
    setVersionFlag,
    setPatronShown,
    setAllPatrons,
    setPackShown,
    setAllPacks,
    setBonus,
    toggleSetting,
    setSharing,
    replace,
  }
}
