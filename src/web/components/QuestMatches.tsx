// How an import's quest names matched the catalog (a completions CSV, a DDO Builder file's
// completed quests): the names matched another way than exactly, a choice for each ambiguous
// name, and the names the catalog does not have, with the choice to keep them as written.
import type { Difficulty } from '../../rules/quests/completion'
import type { QuestsPreview } from '../api'

export type QuestChoice = { name: string; difficulty: Difficulty }

export interface QuestMatchesProps {
  preview: QuestsPreview
  /** By source: the remake chosen for an ambiguous name. */
  choices: Record<string, QuestChoice>
  onChoose(source: string, choice: QuestChoice | null): void
  keepUnmatched: boolean
  onKeepUnmatched(keep: boolean): void
}

export function QuestMatches({ preview, choices, onChoose, keepUnmatched, onKeepUnmatched }: QuestMatchesProps) {
  const otherwise = preview.add.filter((c) => c.how !== 'exact')
  return (
    <>
      {otherwise.length > 0 && (
        <details>
          <summary>Names matched another way ({otherwise.length})</summary>
          <ul class="small">
            {otherwise.map((c) => (
              <li key={c.source}>
                {c.source}: “{c.given}” is {c.name} ({c.difficulty})
                {c.how === 'kept' && ', not in the catalog: kept as written'}
              </li>
            ))}
          </ul>
        </details>
      )}
      {preview.ambiguous.length > 0 && (
        <fieldset class="ambiguous">
          <legend>Which quest is it? ({preview.ambiguous.length})</legend>
          {preview.ambiguous.map((a) => {
            const value = choices[a.source]
            return (
              <label class="field" key={a.source}>
                <span>
                  {a.source}: “{a.name}” ({a.setting})
                </span>
                <select
                  value={value ? `${value.difficulty}\u0000${value.name}` : ''}
                  onChange={(e) => {
                    const [difficulty, name] = e.currentTarget.value.split('\u0000')
                    onChoose(a.source, name ? { name, difficulty: difficulty as Difficulty } : null)
                  }}
                >
                  <option value="">Leave it out</option>
                  {a.candidates.map((c) => (
                    <option key={`${c.difficulty}${c.name}`} value={`${c.difficulty}\u0000${c.name}`}>
                      {c.name} ({c.difficulty}, level {c.level})
                    </option>
                  ))}
                </select>
              </label>
            )
          })}
        </fieldset>
      )}
      {preview.unmatched.length > 0 && (
        <div class="unmatched">
          <p>Not in the quest catalog ({preview.unmatched.length}):</p>
          <ul class="small">
            {preview.unmatched.map((u) => (
              <li key={u.source} data-unmatched={u.name}>
                {u.source}: “{u.name}”
                {u.suggestions.length > 0 && (
                  <span class="muted" data-suggestions={u.suggestions.join('|')}>
                    {' '}
                    — did you mean {u.suggestions.map((s) => `“${s}”`).join(' or ')}?
                  </span>
                )}
              </li>
            ))}
          </ul>
          <label class="check">
            <input type="checkbox" checked={keepUnmatched} onChange={(e) => onKeepUnmatched(e.currentTarget.checked)} />
            <span>Import these as written (the catalog may not have the newest quests)</span>
          </label>
        </div>
      )}
    </>
  )
}
