// Where the catalog tests find their data: our own small fixtures in test/fixtures (always
// there), and the real 718-row catalog in ../shared/fixtures (only on a full checkout; tests
// that need it are skipped, saying so, when it is missing).
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { createLogger, type Logger } from '../src/logger'
import type { QuestRow } from '../src/modules/catalog/parse'
import type { SyncDeps } from '../src/modules/catalog/sync'
import { withFacts } from './catalogFixture'
import type { TestApp } from './helpers'

export const OWN = join(import.meta.dir, 'fixtures')
export const SMALL_JSON = join(OWN, 'catalog-small.json')
export const SMALL_HTML = join(OWN, 'catalog-small.html')
/** Quest names: wiki disambiguators, an ambiguous bare name, entities (HTML and its JSON twin). */
export const NAMES_HTML = join(OWN, 'catalog-names.html')
export const NAMES_JSON = join(OWN, 'catalog-names.json')
export const SCORECARDS = join(OWN, 'scorecards.json')

export const SHARED = join(import.meta.dir, '..', '..', 'shared', 'fixtures', 'catalog')
export const sharedExists = existsSync(join(SHARED, 'quests-718.json'))
export const SHARED_718 = join(SHARED, 'quests-718.json')
export const SHARED_715 = join(SHARED, 'quests-715.json')
export const SHARED_HTML = join(SHARED, 'quests-by-level-and-xp.html')
if (!sharedExists) console.warn('skipped: ../shared/fixtures not found (tests on the real 718-row catalog)')

export const readRows = async (path: string) => ((await Bun.file(path).json()) as Partial<QuestRow>[]).map(withFacts)

/** A logger that keeps its lines, to check what a sync logs. */
export function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = []
  return Object.assign(createLogger('debug', { write: (line) => lines.push(line) }), { lines })
}

export function syncDeps(t: Pick<TestApp, 'db' | 'clock'>): SyncDeps & { logger: ReturnType<typeof recordingLogger> } {
  return { db: t.db, clock: t.clock, logger: recordingLogger() }
}
