// Which quests are raids, where the catalog's source does not say (the wiki's list "Quests by
// level and XP", which the catalog that ships with the program is, carries no group size): the
// raids of the DDO wiki, by the names its quest pages have. Read on 2026-11-29 from the DDO wiki:
// the page "Raid" (https://ddowiki.com/page/Raid: "a highly difficult ... quest designed for 12
// players"), its list of raids with a 20th-completion reward ("Raid loot mechanic",
// https://ddowiki.com/page/Raid_loot_mechanic), and the raids' own pages, which say "is a Raid"
// or "Tier N end game raid" (e.g. https://ddowiki.com/page/Tempest's_Spine,
// https://ddowiki.com/page/The_Codex_and_the_Shroud, https://ddowiki.com/page/Killing_Time). The
// wiki's category page of raids was not among the pages this project could read; so the list was
// checked the other way as well: every name below is a quest the game itself calls a raid (group
// size `Raid` in DDO Audit's public quest list, https://api.ddoaudit.com/v1/quests, project
// Clemeit/ddo-audit-service), and every raid of that list that the shipped catalog has is below.
// A quest the wiki gives a page per tier (the legendary Shroud is "The Codex and the Shroud", the
// legendary Hound "Legendary Hound of Xoriat") is listed by each of its names. Pure data.
import { wikiNameOf } from './questAliases'
import { questNameKey } from './questMatch'
import type { QuestTier } from './questTiers'

/** The wiki's raids, by name: a name is a raid in every tier the catalog has it in. */
export const WIKI_RAIDS: readonly string[] = [
  // Heroic (and their Epic remakes of the same name).
  "Tempest's Spine",
  'The Vault of Night',
  'Plane of Night',
  'The Chronoscope',
  'The Twilight Forge',
  'The Titan Awakes',
  "Zawabi's Revenge",
  "The Reaver's Fate",
  'Ascension Chamber',
  'The Shroud',
  'A Vision of Destruction',
  'Hound of Xoriat',
  'The Master Artificer',
  'The Lord of Blades',
  'Tower of Despair',
  // Epic only.
  'Caught in the Web',
  'The Fall of Truth',
  // Legendary.
  'Defiler of the Just',
  'Fire on Thunder Peak',
  'Temple of the Deathwyrm',
  'The Mark of Death',
  'The Codex and the Shroud',
  'Legendary Hound of Xoriat',
  'Legendary Lord of Blades',
  'Legendary Master Artificer',
  "Legendary Tempest's Spine",
  'Legendary Vision of Destruction',
  'Killing Time',
  'Riding the Storm Out',
  "Old Baba's Hut",
  'The Curse of Strahd',
  'Too Hot to Handle',
  'Project Nemesis',
  'The Dryad and the Demigod',
  'Hunt or Be Hunted',
  'Skeletons in the Closet',
  // Raids newer than the shipped catalog (the game's names, as DDO Audit's list gives them): a
  // sync from the wiki, which says no group size, may bring them.
  'Fire Over Morgrave',
  'Threats Old and New',
  'Den of Vipers',
]

const TIERS: readonly string[] = ['Heroic', 'Epic', 'Legendary'] satisfies QuestTier[]

const LISTED = new Set(WIKI_RAIDS.map(questNameKey))

/**
 * Whether the wiki lists `name` as a raid: the name as the catalog spells it, matched as the
 * catalog's merge matches a source's names (questNameKey: case, apostrophes, spacing, "the", a
 * raid's " (R)"; and the game's other names of a quest, questAliases.ts). A name the wiki
 * disambiguates as the quest ("Against the Demon Queen (quest)") is not its raid of the same
 * words.
 */
export function isListedRaid(name: string, tier?: string): boolean {
  if (/\(quest\)\s*$/i.test(name)) return false
  if (LISTED.has(questNameKey(name))) return true
  const wiki = TIERS.includes(tier as QuestTier) ? wikiNameOf(name, tier as QuestTier) : null
  return wiki !== null && LISTED.has(questNameKey(wiki))
}
