// Narrowing parsed JSON: the one plain-object check every module uses.
export type Json = Record<string, unknown>

/** A JSON object: not null, not an array. */
export const isPlainObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
