// The build page's state, as signals: the character, its live snapshot (null before the plugin
// sent one), its planned build and its lives; the breakdowns and the live/plan difference are
// derived. The actions (promote, import, reincarnate) write through the API client and then
// take the server's answer, so the page shows what was stored.
import { batch, computed, signal } from '@preact/signals'
import { breakdown } from '../../rules/builds/breakdown'
import { diffBuilds, diffWithProfile, unreadAreas } from '../../rules/builds/buildDiff'
import { count } from '../../rules/words'
import {
  api,
  type Character,
  errorMessage,
  type ImportedBuild,
  type Life,
  type LiveBuild,
  type PlannedBuild,
  type ReincarnateBody,
} from '../api'
import type { LiveMode } from '../live'

/** The changes the build page shows (it skips completions and progress). */
export const BUILD_CHANGES: ReadonlySet<string> = new Set(['character', 'live', 'build', 'lives'])

export interface BuildData {
  character: Character
  live: LiveBuild | null
  planned: PlannedBuild
  lives: Life[]
}

export type BuildStore = ReturnType<typeof createBuildStore>

export function createBuildStore(initial: BuildData) {
  const characterId = initial.character.id
  const character = signal(initial.character)
  const live = signal<LiveBuild | null>(initial.live)
  const planned = signal<PlannedBuild>(initial.planned)
  const lives = signal<Life[]>(initial.lives)
  const error = signal<string | null>(null)
  /** A short polite announcement of what an action did. */
  const notice = signal<string | null>(null)
  /** What the last import could not bring over (null before any import). */
  const importWarnings = signal<string[] | null>(null)
  /** The action running, so its button waits (and the others do not fire twice). */
  const busy = signal<'promote' | 'reincarnate' | null>(null)
  const liveOn = signal(true)
  const liveMode = signal<LiveMode>('off')

  const liveBreakdown = computed(() => (live.value ? breakdown(live.value.document) : null))
  const plannedBreakdown = computed(() => (planned.value.document ? breakdown(planned.value.document) : null))
  const unread = computed(() => (live.value ? unreadAreas(live.value.document) : []))
  /** The plan against the live snapshot, or, before the game sent one, against the character's profile. */
  const diff = computed(() => {
    const plan = planned.value.document
    if (!plan) return null
    if (live.value) return diffBuilds(live.value.document, plan)
    const c = character.value
    return diffWithProfile({ race: c.race, alignment: c.alignment, classes: c.classes, level: c.totalLevel }, plan)
  })

  /** Shows what went wrong (a session that ended has already sent the page to sign in: api.ts). */
  function report(e: unknown): void {
    error.value = errorMessage(e)
  }

  async function refresh(): Promise<void> {
    try {
      const [c, l, p, list] = await Promise.all([
        api.character(characterId),
        api.live(characterId),
        api.build(characterId),
        api.lives(characterId),
      ])
      batch(() => {
        character.value = c
        live.value = l
        planned.value = p
        lives.value = list.lives
      })
    } catch (e) {
      report(e)
    }
  }

  async function run(action: NonNullable<typeof busy.value>, work: () => Promise<void>): Promise<void> {
    if (busy.value) return
    busy.value = action
    error.value = null
    try {
      await work()
    } catch (e) {
      report(e)
    } finally {
      busy.value = null
    }
  }

  const promote = () =>
    run('promote', async () => {
      planned.value = await api.promoteLive(characterId)
      notice.value = 'The planned build is now a copy of the live snapshot.'
    })

  /** An import's answer (fileImport.ts): the plan it stored, then whatever else it changed. */
  async function imported({ warnings, imported: taken, ...answer }: ImportedBuild, summary: string) {
    planned.value = answer
    importWarnings.value = warnings
    if (taken && taken.take !== 'plan') await refresh()
    notice.value = `${summary}${warnings.length > 0 ? ` ${count(warnings.length, 'kind of thing', 'kinds of things')} in it had no place in the plan (below).` : ''}`
  }

  const reincarnate = (body: ReincarnateBody) =>
    run('reincarnate', async () => {
      const life = await api.reincarnate(characterId, body)
      await refresh()
      notice.value =
        life.questLife === life.lifeIndex
          ? `Life ${life.lifeIndex} has begun: its quests start over.`
          : `Life ${life.lifeIndex} has begun, with the quests of life ${life.questLife} on.`
    })

  return {
    characterId,
    character,
    live,
    planned,
    lives,
    error,
    notice,
    importWarnings,
    busy,
    liveOn,
    liveMode,
    liveBreakdown,
    plannedBreakdown,
    unread,
    diff,
    refresh,
    promote,
    imported,
    reincarnate,
  }
}
