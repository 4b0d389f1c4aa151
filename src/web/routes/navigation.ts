// A route's navigation for one of the player's characters, as signals: which character and
// match mode (kept in the address, so a reload or a shared link keeps them), the server's
// navigation answer, and live updates from that character's event stream: a completion the
// game posts ticks its step within seconds. Each step's XP is the catalog's, with the route's
// boosts and optionals.
import { effect, signal } from '@preact/signals'
import { estimateXp } from '../../rules/quests/xp'
import {
  api,
  type Character,
  errorMessage,
  type MatchMode,
  type Navigation,
  type QuestRow,
  type RouteDetail,
} from '../api'
import { followCharacter, type LiveMode } from '../live'

/** The changes that can move a character along a route. */
const NAV_CHANGES: ReadonlySet<string> = new Set(['completions', 'progress'])

export type NavStore = ReturnType<typeof createNavStore>

function fromUrl(characters: readonly Character[]): { characterId: number | null; match: MatchMode } {
  const params = new URLSearchParams(location.search)
  const wanted = Number(params.get('character'))
  const characterId = characters.some((c) => c.id === wanted) ? wanted : (characters[0]?.id ?? null)
  return { characterId, match: params.get('match') === 'remake' ? 'remake' : 'setting' }
}

/**
 * Each step's XP by position: the catalog's base XP of its remake at its setting, with the boosts
 * and optionals the route assumes (rules/quests/xp.ts estimateXp); null when the catalog has no
 * figure. Names match without regard to case, as navigation matches them.
 */
export function stepXp(route: RouteDetail, catalog: readonly QuestRow[]): Map<number, number | null> {
  const rows = new Map(catalog.map((q) => [`${q.name.toLowerCase()}\u0000${q.difficulty}`, q]))
  const boosts = route.boosts as Record<string, unknown>
  const optionals = route.optionals as Record<string, unknown>
  return new Map(
    route.quests.map((step) => {
      const row = rows.get(`${step.name.toLowerCase()}\u0000${step.difficulty}`)
      return [step.position, row ? estimateXp(row, step.setting, boosts, optionals) : null]
    }),
  )
}

export function createNavStore(route: RouteDetail, characters: readonly Character[], catalog: readonly QuestRow[]) {
  const initial = fromUrl(characters)
  const xp = stepXp(route, catalog)
  const characterId = signal<number | null>(initial.characterId)
  const match = signal<MatchMode>(initial.match)
  const navigation = signal<Navigation | null>(null)
  const error = signal<string | null>(null)
  const notice = signal<string | null>(null)
  const liveOn = signal(true)
  const liveMode = signal<LiveMode>('off')
  let readSeq = 0

  async function refresh(): Promise<void> {
    const id = characterId.value
    if (id === null) return
    const seq = ++readSeq
    try {
      const next = await api.navigation(id, route.id, match.value)
      if (seq !== readSeq) return
      const before = navigation.value
      navigation.value = next
      error.value = null
      if (before && before.character.id === next.character.id && next.progress.completed > before.progress.completed) {
        notice.value = `Step done. ${next.progress.completed} of ${next.progress.total} steps done.`
      }
    } catch (e) {
      error.value = errorMessage(e)
    }
  }

  /** Steps whose tick or untick is on its way: their boxes wait for the answer. */
  const busy = signal<ReadonlySet<number>>(new Set())

  /**
   * Ticks a step on the route page as the tracker's box does: logs its quest, tier and setting
   * for the chosen character (the plugin's upsert), or, unticked, removes that completion; then
   * reads navigation again. A step done only with another setting (match=remake) is unticked
   * on the tracker, which shows which setting to remove.
   */
  async function tick(
    step: {
      position: number
      name: string
      difficulty: RouteDetail['quests'][number]['difficulty']
      setting: RouteDetail['quests'][number]['setting']
    },
    on: boolean,
  ): Promise<void> {
    const id = characterId.value
    if (id === null || busy.value.has(step.position)) return
    busy.value = new Set([...busy.value, step.position])
    const key = { name: step.name, difficulty: step.difficulty, setting: step.setting }
    try {
      if (on) await api.logCompletion(id, { ...key, completedAt: new Date().toISOString() })
      else await api.deleteCompletion(id, key)
      await refresh()
    } catch (e) {
      error.value = errorMessage(e)
    } finally {
      busy.value = new Set([...busy.value].filter((p) => p !== step.position))
    }
  }

  /** Keeps the choice in the address without a new history entry. */
  function remember(): void {
    const params = new URLSearchParams(location.search)
    if (characterId.value !== null) params.set('character', String(characterId.value))
    params.set('match', match.value)
    history.replaceState(null, '', `${location.pathname}?${params}`)
  }

  /** Reads navigation whenever the character or mode changes, and follows that character live. */
  function start(): () => void {
    return effect(() => {
      const id = characterId.value
      void match.value
      remember()
      void refresh()
      if (id === null || !liveOn.value) return
      return followCharacter({ characterId: id, liveMode, refresh, wants: (what) => NAV_CHANGES.has(what) })
    })
  }

  return {
    route,
    xp,
    characters,
    characterId,
    match,
    navigation,
    error,
    notice,
    liveOn,
    liveMode,
    busy,
    refresh,
    tick,
    start,
  }
}
