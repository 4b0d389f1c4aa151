// The catalog's numbers: how many search results, and the character levels a search takes.

export const DEFAULT_SEARCH_LIMIT = 20
export const MAX_SEARCH_LIMIT = 50
/** Character levels end at 34 (GAME-RULES.md "Levels and tiers": heroic 1-20, epic 21-30, legendary 31-34). */
export const MAX_CHARACTER_LEVEL = 34
