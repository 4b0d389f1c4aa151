// The capability flags of GET /info. Each flag is true exactly when its capability works in
// this build: a feature's issue switches its flag on together with its routes and tests.
export const FEATURES = {
  playOnAny: false,
  unknownDifficultyAccepted: false,
  questSearch: true,
  questLookupRemakes: true,
  completionXp: false,
  completionReaperXp: false,
  characterProfiles: false,
  progressPut: false,
  clearAllSettings: false,
  navigationMatchRemake: true,
  // There is no website with live polling views in this project.
  liveUpdatesWebsite: false,
  characterBuilder: true,
  buildSync: true,
  liveSnapshot: true,
  livePromoteToPlanned: true,
} as const satisfies Record<string, boolean>

export const CHALLENGE_SETTINGS = ['casual', 'normal', 'hard', 'elite', 'reaper', 'unknown'] as const
export const REMAKE_TIERS = ['Heroic', 'Epic', 'Legendary', 'Unknown'] as const
