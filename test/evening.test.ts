// One evening of a game client against a fresh server, across every feature: the catalog,
// a character, completions, progress, a shared route and navigation, the live snapshot,
// reincarnation, and /info. Each feature has its own tests; this one checks they fit together.
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { silentLogger } from '../src/logger'
import { syncCatalog } from '../src/modules/catalog/sync'
import { testApp } from './helpers'

const catalog = join(import.meta.dir, 'fixtures', 'catalog-small.json')

describe('an evening of play', () => {
  test('every feature works on the data the others wrote', async () => {
    const t = testApp({ CATALOG_SOURCE_URL: catalog })
    const sync = await syncCatalog({ db: t.db, clock: t.clock, logger: silentLogger }, catalog)
    expect(sync.ok).toBe(true)
    await t.userWithToken('alice')
    const login = await t.json<{ token: string }>('POST', '/api/plugin/auth/login', {
      body: { login: 'ALICE', password: 'correct horse battery', label: 'game client' },
    })
    expect(login.status).toBe(200)
    const token = login.body.token

    // The plugin finds or creates its character.
    const found = await t.json<{ count: number }>('GET', '/api/plugin/characters/find?firstName=Tharn', { token })
    expect(found.body.count).toBe(0)
    const created = await t.json<{ id: number; name: string; totalLevel: number }>('POST', '/api/plugin/characters', {
      token,
      body: { name: 'Tharn Ironfist', race: 'Dwarf', server: 'Cormyr', classLevels: [{ name: 'Fighter', levels: 9 }] },
    })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ name: 'Tharn Ironfist', totalLevel: 9 })
    const id = created.body.id

    // It looks a quest up, then posts completions: one in the catalog's spelling from a lower-case name.
    const search = await t.json<{ quests: { name: string; difficulty: string; enterable: boolean }[] }>(
      'GET',
      '/api/plugin/quests/search?q=crypt&cl=9',
      { token },
    )
    expect(search.body.quests[0]).toMatchObject({ name: 'Crypt', difficulty: 'Heroic', enterable: true })
    const post = (body: Record<string, unknown>) =>
      t.json<{ ok: boolean; completion: Record<string, unknown> }>('POST', `/api/plugin/characters/${id}/completions`, {
        token,
        body,
      })
    const first = await post({ name: 'crypt', difficulty: 'Heroic', setting: 'elite', xp: 3190 })
    expect(first.status).toBe(201)
    expect(first.body.completion).toMatchObject({
      name: 'Crypt',
      difficulty: 'Heroic',
      setting: 'elite',
      xpEarned: 3190,
    })
    expect((await post({ name: 'Crypt', difficulty: 'heroic', setting: 'Elite', rxp: 12 })).status).toBe(200)
    expect((await post({ name: 'Sewer Run', difficulty: 'reaper' })).status).toBe(201) // remake unknown
    expect((await post({ name: 'Bell Tower', difficulty: 'Heroic', setting: 'hard' })).status).toBe(201)

    const progress = await t.json<{ completions: Record<string, unknown>[]; completedQuests: string[] }>(
      'GET',
      `/api/plugin/characters/${id}/progress`,
      { token },
    )
    expect(progress.body.completedQuests.sort()).toEqual(['Bell Tower', 'Crypt', 'Sewer Run'])
    expect(progress.body.completions.find((c) => c.name === 'Crypt')).toMatchObject({
      xpEarned: 3190,
      reaperXpEarned: 12,
    })
    expect(progress.body.completions.find((c) => c.name === 'Sewer Run')).toMatchObject({
      difficulty: 'Unknown',
      setting: 'reaper',
    })

    // A shared route over those quests, and where the character stands on it.
    const route = await t.json<{ id: number }>('POST', '/api/plugin/routes', {
      token,
      body: {
        name: 'Crypts and sewers',
        quests: [
          { name: 'Crypt' },
          { name: 'Sewer Run', setting: 'reaper' },
          { name: 'Bell Tower' },
          { name: 'Shadow Gate', difficulty: 'Epic' },
        ],
      },
    })
    expect(route.status).toBe(201)
    const navigate = (match: string) =>
      t.json<{
        steps: { completed: boolean }[]
        nextQuest: { name: string } | null
        progress: Record<string, unknown>
      }>('GET', `/api/plugin/navigation?characterId=${id}&routeId=${route.body.id}&match=${match}`, { token })
    const bySetting = await navigate('setting')
    // Crypt elite: exact. Sewer Run reaper on an Unknown remake: matches (domain rule 2).
    // Bell Tower: only hard logged, the step wants elite. Shadow Gate: nothing.
    expect(bySetting.body.steps.map((s) => s.completed)).toEqual([true, true, false, false])
    expect(bySetting.body.nextQuest?.name).toBe('Bell Tower')
    expect(bySetting.body.progress).toEqual({ completed: 2, total: 4, remaining: 2, finished: false })
    const byRemake = await navigate('remake')
    expect(byRemake.body.steps.map((s) => s.completed)).toEqual([true, true, true, false])
    expect(byRemake.body.nextQuest?.name).toBe('Shadow Gate')

    // The plugin uploads the character sheet; the profile follows it.
    const live = await t.json('PUT', `/api/plugin/characters/${id}/live`, {
      token,
      body: {
        document: {
          life: { name: 'Tharn', race: 'Dwarf' },
          build: { level: 10, classes: ['Fighter', null, null], levels: Array(10).fill({ class: 'Fighter' }) },
        },
        source: 'plugin',
      },
    })
    expect(live.status).toBe(200)
    const character = await t.json<{ totalLevel: number; classes: unknown }>('GET', `/api/plugin/characters/${id}`, {
      token,
    })
    expect(character.body).toMatchObject({ totalLevel: 10, classes: [{ name: 'Fighter', levels: 10 }] })

    // A new catalog sync keeps every completion (quests are referred to by name).
    const again = await syncCatalog({ db: t.db, clock: t.clock, logger: silentLogger }, catalog)
    expect(again.ok).toBe(true)
    const after = await t.json<{ completions: unknown[] }>('GET', `/api/plugin/characters/${id}/progress`, { token })
    expect(after.body.completions).toHaveLength(3)

    // Reincarnation archives the life and grants its heroic past life.
    const next = await t.json<{ lifeIndex: number; isCurrent: boolean; specialFeats: { name: string }[] }>(
      'POST',
      `/api/plugin/characters/${id}/lives/reincarnate`,
      { token, body: { grantHeroic: true } },
    )
    expect(next.status).toBe(200)
    expect(next.body).toMatchObject({ lifeIndex: 2, isCurrent: true })
    expect(next.body.specialFeats.map((f) => f.name)).toContain('Past Life: Fighter')

    // /info counts all of it, and every capability flag but the website's live updates is on.
    const info = await t.json<{
      characterCount: number
      routeCount: number
      questCatalogCount: number
      catalog: { rows: number; syncedAt: string | null }
      features: Record<string, unknown>
    }>('GET', '/api/plugin/info', { token })
    expect(info.body).toMatchObject({ characterCount: 1, routeCount: 1, questCatalogCount: 12 })
    expect(info.body.catalog.rows).toBe(12)
    expect(info.body.catalog.syncedAt).not.toBeNull()
    const off = Object.entries(info.body.features)
      .filter(([, value]) => value === false)
      .map(([name]) => name)
    expect(off).toEqual([])
  })
})
