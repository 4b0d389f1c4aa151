// The capability flags of GET /info. Each flag is true exactly when its capability works in
// this build: a feature's issue switches its flag on together with its routes and tests.
export const FEATURES = {
  playOnAny: true,
  unknownDifficultyAccepted: true,
  questSearch: true,
  questLookupRemakes: true,
  completionXp: true,
  completionReaperXp: true,
  characterProfiles: true,
  progressPut: true,
  clearAllSettings: true,
  navigationMatchRemake: true,
  // The website's tracker: server-sent events from the write path, polling when they drop.
  liveUpdatesWebsite: true,
  characterBuilder: true,
  buildSync: true,
  liveSnapshot: true,
  livePromoteToPlanned: true,
  // Issue 41: the skull count of reaper runs (`reaperSkulls` and its aliases, `R5`), and GET
  // /characters/{id}/sagas.
  completionReaperSkulls: true,
  sagas: true,
} as const satisfies Record<string, boolean>

export { CHALLENGE_SETTINGS, REMAKE_TIERS } from '../../rules/quests/completion'
