// Time as a dependency, so tests can move it (login throttling, timestamps).
export interface Clock {
  now(): Date
}

export const systemClock: Clock = { now: () => new Date() }

export const isoNow = (clock: Clock): string => clock.now().toISOString()
