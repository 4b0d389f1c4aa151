// One evening of a game client against a fresh server, across every feature: the catalog,
// a character, completions, progress, a shared route and navigation, the live snapshot,
// reincarnation, and /info. Each feature has its own tests; this one checks they fit together.
import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { silentLogger } from '../../src/logger'
import { syncCatalog } from '../../src/modules/catalog/sync'
import { ok, testApp } from '../helpers'

const catalog = join(import.meta.dir, '..', 'fixtures', 'catalog-small.json')

describe('an evening of play', () => {
  test('every feature works on the data the others wrote', async () => {
    const t = testApp({ CATALOG_SOURCE_URL: catalog })
    const sync = await syncCatalog({ db: t.db, clock: t.clock, logger: silentLogger }, catalog)
    expect(sync.ok).toBe(true)
    await t.userWithToken('alice')
    const login = ok(
      await t.api.plugin.auth.login.post({ login: 'ALICE', password: 'correct horse battery', label: 'game client' }),
    )
    const plugin = t.plugin(login.token)

    // The plugin finds or creates its character.
    expect(ok(await plugin.characters.find.get({ query: { firstName: 'Tharn' } })).count).toBe(0)
    const created = ok(
      await plugin.characters.post({
        name: 'Tharn Ironfist',
        race: 'Dwarf',
        server: 'Cormyr',
        classLevels: [{ name: 'Fighter', levels: 9 }],
      }),
      201,
    )
    expect(created).toMatchObject({ name: 'Tharn Ironfist', totalLevel: 9 })
    const id = created.id
    const me = plugin.characters({ id })

    // It looks a quest up, then posts completions: one in the catalog's spelling from a lower-case name.
    const search = ok(await plugin.quests.search.get({ query: { q: 'crypt', cl: 9 } }))
    expect(search.quests[0]).toMatchObject({ name: 'Crypt', difficulty: 'Heroic', enterable: true })
    const post = me.completions.post
    const first = ok(await post({ name: 'crypt', difficulty: 'Heroic', setting: 'elite', xp: 3190 }), 201)
    expect(first.completion).toMatchObject({
      name: 'Crypt',
      difficulty: 'Heroic',
      setting: 'elite',
      xpEarned: 3190,
    })
    ok(await post({ name: 'Crypt', difficulty: 'heroic', setting: 'Elite', rxp: 12 }), 200)
    ok(await post({ name: 'Sewer Run', difficulty: 'reaper' }), 201) // remake unknown
    ok(await post({ name: 'Bell Tower', difficulty: 'Heroic', setting: 'hard' }), 201)

    const progress = ok(await me.progress.get())
    expect(progress.completedQuests.sort()).toEqual(['Bell Tower', 'Crypt', 'Sewer Run'])
    expect(progress.completions.find((c) => c.name === 'Crypt')).toMatchObject({
      xpEarned: 3190,
      reaperXpEarned: 12,
    })
    expect(progress.completions.find((c) => c.name === 'Sewer Run')).toMatchObject({
      difficulty: 'Unknown',
      setting: 'reaper',
    })

    // A shared route over those quests, and where the character stands on it.
    const route = ok(
      await plugin.routes.post({
        name: 'Crypts and sewers',
        quests: [
          { name: 'Crypt' },
          { name: 'Sewer Run', setting: 'reaper' },
          { name: 'Bell Tower' },
          { name: 'Shadow Gate', difficulty: 'Epic' },
        ],
      }),
      201,
    )
    const navigate = async (match: 'setting' | 'remake') =>
      ok(await plugin.navigation.get({ query: { characterId: id, routeId: route.id, match } }))
    const bySetting = await navigate('setting')
    // Crypt elite: exact. Sewer Run reaper on an Unknown remake: matches (domain rule 2).
    // Bell Tower: only hard logged, the step wants elite. Shadow Gate: nothing.
    expect(bySetting.steps.map((s) => s.completed)).toEqual([true, true, false, false])
    expect(bySetting.nextQuest?.name).toBe('Bell Tower')
    expect(bySetting.progress).toEqual({ completed: 2, total: 4, remaining: 2, finished: false })
    const byRemake = await navigate('remake')
    expect(byRemake.steps.map((s) => s.completed)).toEqual([true, true, true, false])
    expect(byRemake.nextQuest?.name).toBe('Shadow Gate')

    // The plugin uploads the character sheet; the profile follows it.
    ok(
      await me.live.put({
        document: {
          life: { name: 'Tharn', race: 'Dwarf' },
          build: {
            level: 10,
            classes: ['Fighter', null, null],
            levels: Array.from({ length: 10 }, () => ({ class: 'Fighter' })),
          },
        },
        source: 'plugin',
      }),
    )
    expect(ok(await me.get())).toMatchObject({ totalLevel: 10, classes: [{ name: 'Fighter', levels: 10 }] })

    // A new catalog sync keeps every completion (quests are referred to by name).
    const again = await syncCatalog({ db: t.db, clock: t.clock, logger: silentLogger }, catalog)
    expect(again.ok).toBe(true)
    expect(ok(await me.progress.get()).completions).toHaveLength(3)

    // Reincarnation archives the life and grants its heroic past life.
    const next = ok(await me.lives.reincarnate.post({ grantHeroic: true }))
    expect(next).toMatchObject({ lifeIndex: 2, isCurrent: true })
    expect(next.specialFeats.map((f) => f.name)).toContain('Past Life: Fighter')

    // /info counts all of it, and every capability flag but the website's live updates is on.
    const info = ok(await plugin.info.get())
    expect(info).toMatchObject({ characterCount: 1, routeCount: 1, questCatalogCount: 12 })
    expect(info.catalog.rows).toBe(12)
    expect(info.catalog.syncedAt).not.toBeNull()
    const off = Object.entries(info.features)
      .filter(([, value]) => value === false)
      .map(([name]) => name)
    expect(off).toEqual([])
  })
})
