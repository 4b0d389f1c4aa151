// Quest names as players type them, through HTTP: a completion, a route step and a lookup by the
// name the game shows ("Devil Assault") find the one catalog row it can mean ("Devil Assault
// (quest)") and use the catalog's spelling; a bare name that could mean two pages stays as sent.
// The catalog is synced from our names page (test/fixtures/catalog-names.html), so its
// entities are decoded on the way in.
import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { completions } from '../../../src/db/schema'
import { CatalogIndex } from '../../../src/modules/catalog/search'
import { syncCatalog } from '../../../src/modules/catalog/sync'
import { NAMES_HTML, readRows, SHARED_718, sharedExists, syncDeps } from '../../catalogFixtures'
import { type Client, insertCharacter, ok, refused, testApp } from '../../helpers'

type Completions = ReturnType<Client['plugin']['characters']>['completions']

async function setup() {
  const t = testApp()
  expect(await syncCatalog(syncDeps(t), NAMES_HTML)).toMatchObject({ ok: true, format: 'html', rows: 7 })
  const token = await t.userWithToken('alice')
  const character = insertCharacter(t.db, 'alice')
  const completionsOf = t.plugin(token).characters({ id: character.id }).completions
  const post = (body: Parameters<Completions['post']>[0]) => completionsOf.post(body)
  const stored = () =>
    t.db
      .select({ name: completions.name, difficulty: completions.difficulty })
      .from(completions)
      .where(eq(completions.characterId, character.id))
      .orderBy(completions.id)
      .all()
      .map((row) => `${row.name}|${row.difficulty}`)
  return { ...t, token, completionsOf, post, stored }
}

describe('a completion by the name the game shows', () => {
  test('"Devil Assault" is stored as "Devil Assault (quest)", the only row it can mean', async () => {
    const { post, stored } = await setup()
    const first = ok(await post({ name: 'Devil Assault', difficulty: 'Heroic', setting: 'elite' }), 201)
    expect(first.completion.name).toBe('Devil Assault (quest)')
    // Another case, and no remake: the same row, so the second post updates it.
    ok(await post({ name: 'devil assault', difficulty: 'Heroic', setting: 'elite' }))
    expect((await post({ name: '  DEVIL ASSAULT ', setting: 'hard' })).data?.completion.name).toBe(
      'Devil Assault (quest)',
    )
    expect(stored()).toEqual(['Devil Assault (quest)|Heroic', 'Devil Assault (quest)|Unknown'])
  })

  test('the remake picks between a page and its "(epic)" page', async () => {
    const { post, stored } = await setup()
    await post({ name: 'Ghost of a Chance', difficulty: 'Epic' })
    await post({ name: 'Ghost of a Chance', difficulty: 'Heroic' })
    // Without a remake the page of that exact name is the one meant.
    await post({ name: 'ghost of a chance' })
    expect(stored()).toEqual(['Ghost of a Chance (epic)|Epic', 'Ghost of a Chance|Heroic', 'Ghost of a Chance|Unknown'])
  })

  test('a bare name that could mean two pages is stored as sent; an unknown name too', async () => {
    const { post, stored } = await setup()
    expect((await post({ name: 'Tangled Depths', difficulty: 'Heroic' })).data?.completion.name).toBe('Tangled Depths')
    expect((await post({ name: 'A Quest The Wiki Lacks' })).data?.completion.name).toBe('A Quest The Wiki Lacks')
    expect(stored()).toEqual(['Tangled Depths|Heroic', 'A Quest The Wiki Lacks|Unknown'])
  })

  test('case folding covers accents, and the name keeps its decoded entities', async () => {
    const { post } = await setup()
    // The page writes this name "Caf&eacute; R&#233;sum&#xE9; &amp; Co.".
    expect((await post({ name: 'CAFÉ RÉSUMÉ & CO.' })).data?.completion.name).toBe('Café Résumé & Co.')
  })

  test('a delete by the bare name removes the row stored with the catalog spelling', async () => {
    const { post, stored, completionsOf } = await setup()
    await post({ name: 'Devil Assault', difficulty: 'Heroic', setting: 'elite' })
    const deleted = ok(await completionsOf.delete({ name: 'Devil Assault', difficulty: 'Heroic', setting: 'elite' }))
    expect(deleted).toMatchObject({ ok: true, deleted: 1 })
    expect(stored()).toEqual([])
  })
})

describe('a route step by the name the game shows', () => {
  test('resolves like a completion, with the step remake; an ambiguous name stays as sent', async () => {
    const { plugin, token } = await setup()
    const route = ok(
      await plugin(token).routes.post({
        name: 'Names',
        quests: [
          { name: 'Devil Assault' },
          { name: 'Ghost of a Chance', difficulty: 'Epic' },
          { name: 'ghost of a chance' },
          { name: 'Tangled Depths' },
        ],
      }),
      201,
    )
    expect(route.quests.map((q) => `${q.name}|${q.difficulty}`)).toEqual([
      'Devil Assault (quest)|Heroic',
      'Ghost of a Chance (epic)|Epic',
      'Ghost of a Chance|Heroic',
      'Tangled Depths|Heroic',
    ])
  })
})

describe('/quests/lookup by the name the game shows', () => {
  const lookup = async (query: Parameters<Client['plugin']['quests']['lookup']['get']>[0]['query']) => {
    const { plugin, token } = await setup()
    return plugin(token).quests.lookup.get({ query })
  }

  test('"Devil Assault" finds "Devil Assault (quest)" and both its remakes', async () => {
    const body = ok(await lookup({ name: 'Devil Assault' }))
    expect(body.remakes.map((r) => `${r.name}/${r.difficulty}`)).toEqual([
      'Devil Assault (quest)/Heroic',
      'Devil Assault (quest)/Epic',
    ])
  })

  test('with a remake, "Ghost of a Chance" finds the "(epic)" page', async () => {
    const body = ok(await lookup({ name: 'Ghost of a Chance', difficulty: 'Epic' }))
    expect(body.quests).toEqual([expect.objectContaining({ name: 'Ghost of a Chance (epic)', difficulty: 'Epic' })])
  })

  test('an ambiguous bare name is a 404 that names the pages it could mean', async () => {
    // refused() holds the body to exactly {error}.
    expect(refused(await lookup({ name: 'Tangled Depths' }), 404).error).toBe(
      '"Tangled Depths" could mean Tangled Depths (quest) or Tangled Depths (raid); look it up by its full name.',
    )
  })
})

describe.skipIf(!sharedExists)('on the real 718-row catalog', () => {
  test('every "(quest)" page resolves from its bare name; "(epic)" pages by the Epic remake', async () => {
    const index = new CatalogIndex(await readRows(SHARED_718))
    for (const name of ['Devil Assault', 'Against the Demon Queen', 'Redemption', "Return to Delera's Tomb"])
      expect(index.resolveName(name)).toBe(`${name} (quest)`)
    // The heroic page has the bare name itself: it wins without a remake, the "(epic)" page with one.
    for (const name of ['Ghost of a Chance', 'Desecrated Temple of Vol', 'Prove Your Worth']) {
      expect(index.resolveName(name)).toBe(name)
      expect(index.resolveName(name, 'Heroic')).toBe(name)
      expect(index.resolveName(name, 'Epic')).toBe(`${name} (epic)`)
    }
  })
})
