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
  // There is no website with live polling views in this project.
  liveUpdatesWebsite: false,
  characterBuilder: true,
  buildSync: true,
  liveSnapshot: true,
  livePromoteToPlanned: true,
} as const satisfies Record<string, boolean>

export { CHALLENGE_SETTINGS, REMAKE_TIERS } from '../../rules/completion'
