// The sentence under the tracker's quest list that says where the quests come from.
import { describe, expect, test } from 'bun:test'
import type { CatalogSource } from '../../../src/web/api'
import { catalogSentence, whenSynced } from '../../../src/web/tracker/catalogSource'

const NOW = new Date(2026, 10, 29, 15, 0).getTime()
const at = (day: number, hour = 4) => new Date(2026, 10, day, hour, 17).toISOString()

const source = (over: Partial<CatalogSource>): CatalogSource => ({
  rows: 812,
  origin: 'sync',
  source: 'DDO Audit',
  syncedAt: at(29),
  asOf: at(29),
  attempts: [],
  ...over,
})

describe('catalogSentence', () => {
  test('synced from DDO Audit today, the wiki having refused: both said', () => {
    const attempts: CatalogSource['attempts'] = [
      { source: 'the DDO wiki', at: at(29), outcome: 'challenge', detail: 'refused this server with a bot challenge' },
      { source: 'DDO Audit', at: at(29), outcome: 'ok', detail: '700 quest rows read' },
    ]
    expect(catalogSentence(source({ attempts }), NOW)).toBe(
      'Quest list: 812 quests from DDO Audit, synced today; the DDO wiki refused this server.',
    )
  })

  test('the copy that ships with the program, no source reachable', () => {
    const attempts: CatalogSource['attempts'] = [
      { source: 'the DDO wiki', at: at(29), outcome: 'challenge', detail: 'x' },
      { source: 'DDO Audit', at: at(29), outcome: 'failed', detail: 'did not answer within 30 s' },
    ]
    const sentence = catalogSentence(
      source({
        origin: 'snapshot',
        rows: 718,
        source: 'the DDO wiki',
        syncedAt: null,
        asOf: '2023-08-05T14:46:59.000Z',
        attempts,
      }),
      NOW,
    )
    expect(sentence).toStartWith("Quest list: 718 quests from the DDO wiki's list of ")
    expect(sentence).toContain('2023')
    expect(sentence).toEndWith(
      ', as shipped with Quest Tracker; not synced yet; the DDO wiki refused this server; DDO Audit could not be read (did not answer within 30 s).',
    )
  })

  test('a refusal older than the last sync is not news', () => {
    const attempts: CatalogSource['attempts'] = [
      { source: 'the DDO wiki', at: at(27), outcome: 'challenge', detail: 'x' },
    ]
    expect(catalogSentence(source({ source: 'the DDO wiki', attempts }), NOW)).toBe(
      'Quest list: 812 quests from the DDO wiki, synced today.',
    )
  })

  test('empty', () => {
    expect(catalogSentence(source({ origin: 'none', rows: 0, syncedAt: null, asOf: null }), NOW)).toBe(
      'Quest list: Empty, until the server fills it.',
    )
  })

  test.each([
    [at(29, 1), 'today'],
    [at(28, 23), 'yesterday'],
    [at(26), '3 days ago'],
  ])('synced at %s: %s', (iso, words) => {
    expect(whenSynced(iso, NOW)).toBe(words)
  })
})
