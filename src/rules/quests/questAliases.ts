// Quests the game and the DDO wiki name differently, beyond what the forgiving name key already
// forgives (case, apostrophes, spacing, "the", disambiguators; questMatch.ts). The game's names
// are those of its own quest data, as DDO Audit's public quest list gives them
// (https://api.ddoaudit.com/v1/quests; the project Clemeit/ddo-audit-service); the wiki's are the
// page titles of "Quests by level and XP" (https://ddowiki.com/page/Quests_by_level_and_XP).
// Found by comparing the two lists of 2025 and 2023: each pair is one quest with one level and
// adventure pack in both. The game calls an epic version by its heroic name; the wiki gives some
// of them a page of their own ("Return to Gianthold Tor"). Pure data.
import { questNameKey } from './questMatch'
import type { QuestTier } from './questTiers'

/** [the game's name, the tiers it applies to, the wiki's name]. */
const ALIASES: readonly (readonly [game: string, tiers: readonly QuestTier[], wiki: string])[] = [
  ['Gianthold Tor', ['Epic'], 'Return to Gianthold Tor'],
  ['Madstone Crater', ['Epic'], 'Return to Madstone Crater'],
  ['A Cabal for One', ['Epic'], 'Return to Cabal for One'],
  ['The Prison of the Planes', ['Epic'], 'Return to Prison of the Planes'],
  ['Old Grey Garl', ['Epic'], 'Old Tomb, New Tenants'],
  ['The Legend of Two-Toed Tobias', ['Epic'], 'A Legend Revisited'],
  ['Temple of Elemental Evil: Fire Node', ['Heroic', 'Legendary'], 'ToEE: Fire Node'],
  ['Temple of Elemental Evil: Water Node', ['Heroic', 'Legendary'], 'ToEE: Water Node'],
  ['The Legendary Shroud', ['Legendary'], 'The Codex and the Shroud'],
]

const byKey = new Map<string, string>(
  ALIASES.flatMap(([game, tiers, wiki]) => tiers.map((tier) => [`${tier}:${questNameKey(game)}`, wiki] as const)),
)

/** The wiki's name of a quest the game names `name` in `tier`, when the two differ; else null. */
export function wikiNameOf(name: string, tier: QuestTier): string | null {
  return byKey.get(`${tier}:${questNameKey(name)}`) ?? null
}

/** The game's name of a wiki page in `tier`, when the two differ (the other way of wikiNameOf); else null. */
export function gameNameOf(wikiName: string, tier: string): string | null {
  const found = ALIASES.find(([, tiers, wiki]) => wiki === wikiName && (tiers as readonly string[]).includes(tier))
  return found ? found[0] : null
}
