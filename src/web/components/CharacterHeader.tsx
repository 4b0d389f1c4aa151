// The head of every page about one character (its quests, build, stats and sagas): a way back to the
// characters, the name and facts, and the character's pages as tabs.
import type { ComponentChildren } from 'preact'
import type { Character } from '../api'

export type CharacterPage = 'quests' | 'build' | 'stats' | 'sagas'

const PAGES: readonly { page: CharacterPage; label: string; path: (id: number) => string }[] = [
  { page: 'quests', label: 'Quests', path: (id) => `/characters/${id}` },
  { page: 'build', label: 'Build', path: (id) => `/characters/${id}/build` },
  { page: 'stats', label: 'Stats', path: (id) => `/characters/${id}/stats` },
  { page: 'sagas', label: 'Sagas', path: (id) => `/characters/${id}/sagas` },
]

/**
 * Level, classes, race, server and the guild the plugin sends (or the form): what is known of them.
 * No level at all (a life just begun by a true reincarnation, whose first class the game client has
 * not said yet) reads as such, not as level 0.
 */
export function characterFacts(c: Character, level: number = c.totalLevel): string {
  const levelWords = level === 0 && c.classes.length === 0 ? 'No class levels yet' : `Level ${level}`
  return [levelWords, c.classSummary, c.race, c.server, c.guild && `Guild: ${c.guild}`].filter(Boolean).join(' · ')
}

interface Props {
  character: Character
  current: CharacterPage
  /** The share page: no way back, no tabs (they need signing in). */
  readOnly?: boolean
  level?: number
  children?: ComponentChildren
}

export function CharacterHeader({ character, current, readOnly = false, level, children }: Props) {
  const label = PAGES.find((p) => p.page === current)?.label ?? ''
  return (
    <div class="character-head">
      {!readOnly && (
        <p class="crumbs">
          <a href="/">← All characters</a> · <a href={`/characters/${character.id}/edit`}>Edit character</a>
        </p>
      )}
      <h1>
        {character.name}
        {current !== 'quests' && <span class="h1-part"> · {label}</span>}
      </h1>
      <p class="facts">{characterFacts(character, level)}</p>
      {!readOnly && (
        <nav class="tabs" aria-label={`${character.name}: pages`}>
          {PAGES.map((p) => (
            <a
              key={p.page}
              href={p.path(character.id)}
              aria-current={p.page === current ? 'page' : undefined}
              data-tab={p.page}
            >
              {p.label}
            </a>
          ))}
        </nav>
      )}
      {children}
    </div>
  )
}
