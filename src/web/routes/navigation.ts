// A route's navigation for one of the player's characters, as signals: which character and
// match mode (kept in the address, so a reload or a shared link keeps them), the server's
// navigation answer, and live updates from that character's event stream: a completion the
// game posts ticks its step within seconds.
import { effect, signal } from '@preact/signals'
import { api, type Character, errorMessage, type MatchMode, type Navigation, type RouteDetail } from '../api'
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

export function createNavStore(route: RouteDetail, characters: readonly Character[]) {
  const initial = fromUrl(characters)
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

  return { route, characters, characterId, match, navigation, error, notice, liveOn, liveMode, refresh, start }
}
