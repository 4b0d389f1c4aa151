// Which quest remakes suit a character level: entering (a character may enter a remake whose
// level is at or below its own) and the tier a level naturally plays (plugin-api.md, "Search
// ranking": below 20 Heroic, 20 to 29 Epic, 30 and above Legendary).
export type QuestTier = 'Heroic' | 'Epic' | 'Legendary'

export function isEnterable(characterLevel: number, questLevel: number): boolean {
  return characterLevel >= questLevel
}

export function preferredTier(characterLevel: number): QuestTier {
  if (characterLevel < 20) return 'Heroic'
  if (characterLevel < 30) return 'Epic'
  return 'Legendary'
}
