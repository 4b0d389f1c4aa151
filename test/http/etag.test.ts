// Conditional reads (src/http/etag.ts): progress, navigation, the character list, one character,
// the builds, the lives and the share view carry an ETag; the same tag sent back is a 304 with no
// body; and no write, of any kind and from either API or another connection, leaves a tag in
// place while the answer it tags changed.
import { describe, expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { systemClock } from '../../src/clock'
import { openDatabase } from '../../src/db/client'
import { syncCatalog } from '../../src/modules/catalog/sync'
import { listCharacters } from '../../src/modules/characters/service'
import { postCompletion } from '../../src/modules/completions/service'
import { ChangeFeed } from '../../src/modules/events/feed'
import { SMALL_JSON, syncDeps } from '../catalogFixtures'
import { nextTurn, ok, refused, testApp } from '../helpers'

const FIGHTER = join(import.meta.dir, '..', 'fixtures', 'small-fighter.DDOBuild')

/** An account with a character that has a completion, a live snapshot, a plan and a route. */
async function setup(t = testApp()) {
  const token = await t.userWithToken('alice')
  const cookie = await t.signIn('alice')
  const plugin = t.plugin(token)
  const web = t.web(cookie)
  const character = ok(
    await plugin.characters.post({ givenName: 'Tordek', classes: [{ name: 'Fighter', levels: 5 }] }),
    201,
  )
  const me = plugin.characters({ id: character.id })
  ok(await me.completions.post({ name: 'The Pit', setting: 'elite' }), 201)
  ok(await me.live.put({ life: { name: 'Tordek' } }))
  ok(await me.build.put({ build: { notes: 'plan' } }))
  const shared = ok(await me.share.post())
  const route = ok(
    await plugin.routes.post({ name: 'Evening', quests: [{ name: 'The Pit' }, { name: 'Tangleroot' }] }),
    201,
  )
  return { t, token, cookie, plugin, web, me, character, route, shareToken: shared.shareToken }
}

type Setup = Awaited<ReturnType<typeof setup>>

/** Every tagged read of the account's data, on both APIs, as raw requests (the tags are headers). */
function reads({ character, route, shareToken }: Setup) {
  const id = character.id
  const characterReads = (prefix: string) => ({
    [`${prefix}/characters`]: `${prefix}/characters`,
    [`${prefix}/characters/{id}`]: `${prefix}/characters/${id}`,
    [`${prefix}/characters/{id}/progress`]: `${prefix}/characters/${id}/progress`,
    [`${prefix}/characters/{id}/progress?life=1`]: `${prefix}/characters/${id}/progress?life=1`,
    [`${prefix}/characters/{id}/live`]: `${prefix}/characters/${id}/live`,
    [`${prefix}/characters/{id}/build`]: `${prefix}/characters/${id}/build`,
    [`${prefix}/characters/{id}/lives`]: `${prefix}/characters/${id}/lives`,
    [`${prefix}/navigation`]: `${prefix}/navigation?characterId=${id}&routeId=${route.id}`,
  })
  return {
    ...characterReads('/api/plugin'),
    ...characterReads('/api'),
    '/api/share/{token}': `/api/share/${shareToken}`,
  }
}

interface Read {
  status: number
  tag: string | null
  body: string
}

async function readAll(s: Setup, ifNoneMatch?: Record<string, string | null>): Promise<Record<string, Read>> {
  const out: Record<string, Read> = {}
  for (const [name, path] of Object.entries(reads(s))) {
    const held = ifNoneMatch?.[name]
    const headers: Record<string, string> = held ? { 'if-none-match': held } : {}
    // Raw: the ETag and If-None-Match are headers, and the plugin and website reads are walked alike.
    const credential = path.startsWith('/api/plugin') ? { token: s.token } : { cookie: s.cookie }
    const response = await s.t.request('GET', path, { ...credential, headers })
    out[name] = { status: response.status, tag: response.headers.get('etag'), body: await response.text() }
  }
  return out
}

describe('a tagged read', () => {
  test('answers an ETag, and a 304 with no body to the same tag; the cache keeps it private', async () => {
    const s = await setup()
    const first = await readAll(s)
    for (const [name, read] of Object.entries(first)) {
      expect({ name, status: read.status, tag: read.tag }).toEqual({
        name,
        status: 200,
        tag: expect.stringMatching(/^"[\w.-]+"$/),
      })
    }
    const tags = Object.fromEntries(Object.entries(first).map(([name, read]) => [name, read.tag]))
    const again = await readAll(s, tags)
    for (const [name, read] of Object.entries(again)) {
      expect({ name, ...read }).toEqual({ name, status: 304, tag: tags[name] as string, body: '' })
    }
    // A weak form of the tag and a list holding it match too (RFC 9110 weak comparison).
    const progress = s.me.progress
    const tag = tags['/api/plugin/characters/{id}/progress'] as string
    for (const held of [`W/${tag}`, `"other", ${tag}`, '*']) {
      const answer = await progress.get({ headers: { 'if-none-match': held } })
      expect({ held, status: answer.status }).toEqual({ held, status: 304 })
    }
    expect((await progress.get({ headers: { 'if-none-match': '"other"' } })).status).toBe(200)
    const answer = await progress.get()
    expect(answer.response.headers.get('cache-control')).toBe('private, no-cache')
  })

  test("another account's character, or an unknown one, is still 404 whatever tag is sent", async () => {
    const s = await setup()
    const tags = await readAll(s)
    const bobToken = await s.t.userWithToken('bob')
    const bobCookie = await s.t.signIn('bob')
    const bob = s.t.plugin(bobToken)
    const held = tags['/api/plugin/characters/{id}/progress']?.tag as string
    for (const tag of [held, '*']) {
      const headers = { 'if-none-match': tag }
      const theirs = bob.characters({ id: s.character.id })
      refused(await theirs.progress.get({ headers }), 404)
      refused(await theirs.get({ headers }), 404)
      refused(await theirs.live.get({ headers }), 404)
      refused(await theirs.build.get({ headers }), 404)
      refused(await theirs.lives.get({ headers }), 404)
      refused(await bob.navigation.get({ query: { characterId: s.character.id, routeId: s.route.id }, headers }), 404)
      refused(await s.t.web(bobCookie).characters({ id: s.character.id }).progress.get({ headers }), 404)
      refused(await s.plugin.characters({ id: 999 }).progress.get({ headers }), 404)
      // A life the character never had, and a route that is not there, are 404 too.
      refused(await s.me.progress.get({ query: { life: 7 }, headers }), 404)
      refused(await s.plugin.navigation.get({ query: { characterId: s.character.id, routeId: 999 }, headers }), 404)
    }
    // Bob's list is his own: Alice's tag is not his.
    const list = await bob.characters.get({
      headers: { 'if-none-match': tags['/api/plugin/characters']?.tag as string },
    })
    expect(ok(list)).toEqual({ characters: [] })
  })

  test('a share link that was stopped answers 404, not 304', async () => {
    const s = await setup()
    const tag = (await readAll(s))['/api/share/{token}']?.tag as string
    ok(await s.me.share.delete())
    refused(await s.t.api.share({ token: s.shareToken }).get({ headers: { 'if-none-match': tag } }), 404)
  })
})

/** What each write is, and which of the reads it must change (the rest may keep their tag). */
const WRITES: [string, (s: Setup) => Promise<unknown>][] = [
  ['a new completion', (s) => s.me.completions.post({ name: 'Tangleroot', setting: 'hard' })],
  ['a completion logged again', (s) => s.me.completions.post({ name: 'The Pit', setting: 'elite', xpEarned: 900 })],
  ['an untick', (s) => s.me.completions.delete({ name: 'The Pit', setting: 'elite' })],
  ['PUT progress (a tracker field)', (s) => s.me.progress.put({ levelBand: 3 })],
  ['PUT progress (the whole set)', (s) => s.me.progress.put({ completions: [{ name: 'Tangleroot' }] })],
  ['a profile change', (s) => s.me.patch({ surname: 'Stonefist' })],
  ['a login', (s) => s.me.login.post({})],
  ['sharing off', (s) => s.me.share.delete()],
  ['PUT live', (s) => s.me.live.put({ build: { notes: 'live' } })],
  ['PUT live/partial', (s) => s.me.live.partial.put({ life: { race: 'Dwarf' } })],
  ['promote to planned', (s) => s.me.live['promote-to-planned'].post()],
  ['PUT build', (s) => s.me.build.put({ build: { notes: 'another plan' } })],
  ['PUT build/partial', (s) => s.me.build.partial.put({ build: { notes: 'more' } })],
  ['a reincarnation', (s) => s.me.lives.reincarnate.post({})],
  [
    'a CSV import (website)',
    (s) =>
      s.web
        .characters({ id: s.character.id })
        .completions.import.post({ csv: 'name\nA Quest Not In The Catalog\n', confirm: true, keepUnmatched: true }),
  ],
  [
    'a DDO Builder import (website)',
    async (s) => s.web.characters({ id: s.character.id }).build.import.post({ xml: await Bun.file(FIGHTER).text() }),
  ],
  [
    'the route changed',
    (s) => s.plugin.routes({ id: s.route.id }).put({ name: 'Late evening', quests: [{ name: 'The Pit' }] }),
  ],
  ['another character of the account', (s) => s.plugin.characters.post({ givenName: 'Regdar' })],
  ['a catalog sync', (s) => syncCatalog(syncDeps(s.t), SMALL_JSON)],
]

describe('no answer changes under the same tag', () => {
  for (const [label, write] of WRITES) {
    test(`${label}: every read whose answer changed has a new tag`, async () => {
      const s = await setup()
      const before = await readAll(s)
      const answer = (await write(s)) as { status?: number } | undefined
      if (answer && typeof answer === 'object' && 'status' in answer) expect(answer.status).toBeLessThan(300)
      const after = await readAll(s)
      const changed: string[] = []
      for (const [name, read] of Object.entries(after)) {
        const old = before[name] as Read
        if (read.tag === old.tag) {
          // The same tag promises the same answer, to the byte.
          expect({ name, status: read.status, body: read.body }).toEqual({ name, status: old.status, body: old.body })
        } else changed.push(name)
        // And every answer is still a 200 with a tag (the share view of a link that was stopped: 404).
        const gone = label === 'sharing off' && name === '/api/share/{token}'
        expect({ name, status: read.status }).toEqual({ name, status: gone ? 404 : 200 })
      }
      // The list's counts, kept per version of each character, are the ones counted afresh.
      const listed = JSON.parse(after['/api/plugin/characters']?.body as string) as {
        characters: { questsDone?: number }[]
      }
      const userId = ok(await s.plugin.auth.me.get()).id
      expect(listed.characters.map((c) => c.questsDone)).toEqual(
        listCharacters(s.t.db, userId).map((c) => c.questsDone),
      )
      // Every write to the character moves its tags on; the catalog and a route are not the character.
      if (label === 'a catalog sync') expect(changed).toEqual([])
      else if (label === 'the route changed') expect(changed).toEqual(['/api/plugin/navigation', '/api/navigation'])
      else if (label === 'another character of the account')
        expect(changed).toEqual(['/api/plugin/characters', '/api/characters'])
      else expect(changed).toEqual(Object.keys(after))
    })
  }

  test('a write by another connection to the file (the CLI) changes every tag', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'qt-etag-')), 'qt.sqlite')
    const s = await setup(testApp({}, { db: openDatabase(path) }))
    const before = await readAll(s)
    const other = openDatabase(path)
    postCompletion(
      { db: other, clock: systemClock, changes: new ChangeFeed() },
      (await s.plugin.auth.me.get()).data?.id as number,
      s.character.id,
      { name: 'Tangleroot', setting: 'reaper' },
    )
    other.$client.close()
    await nextTurn()
    const after = await readAll(s)
    for (const [name, read] of Object.entries(after)) {
      expect({ name, changed: read.tag !== before[name]?.tag }).toEqual({ name, changed: true })
    }
    s.t.db.$client.close()
  })

  test('a deleted route is 404 for the tag its navigation had', async () => {
    const s = await setup()
    const navigation = s.plugin.navigation
    const query = { characterId: s.character.id, routeId: s.route.id }
    const tag = (await navigation.get({ query })).response.headers.get('etag') as string
    ok(await s.plugin.routes({ id: s.route.id }).delete())
    refused(await navigation.get({ query, headers: { 'if-none-match': tag } }), 404)
  })
})
