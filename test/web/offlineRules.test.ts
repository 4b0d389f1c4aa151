// The offline support's rules, without a browser: what the service worker keeps and where
// (src/web/offline/cachePolicy.ts), how the write queue reads the server's answers
// (src/web/offline/queue.ts), and the tracker's progress with the queued changes made on it
// (src/web/tracker/queued.ts). test/web/offline.test.ts runs them in Chromium.
import { describe, expect, test } from 'bun:test'
import { SESSION_IDLE_MS } from '../../src/modules/session/service'
import {
  dataCacheName,
  type Handling,
  handlingOf,
  isFresh,
  keyOf,
  onAnswer,
  userIdOf,
} from '../../src/web/offline/cachePolicy'
import { OFFLINE_MAX_AGE_MS } from '../../src/web/offline/limits'
import { deliveryOf, describeChange, isWaiting, type QueuedChange } from '../../src/web/offline/queue'
import { patchProgress, withQueued } from '../../src/web/tracker/queued'
import { ok, testApp } from '../helpers'

const ORIGIN = 'https://qt.home.arpa:8080'

describe('what the service worker does with a request', () => {
  const cases: [method: string, url: string, mode: string, handling: Handling][] = [
    // Pages: the server's, else the kept shell; an /api address opened as a page is a download.
    ['GET', '/', 'navigate', 'page'],
    ['GET', '/characters/7', 'navigate', 'page'],
    ['GET', '/s/abc', 'navigate', 'page'],
    ['GET', '/api/account/export', 'navigate', 'network'],
    ['GET', '/characters/7/build/export', 'navigate', 'page'],
    // The shell's files.
    ['GET', '/assets/index-abc123.js', 'cors', 'shell'],
    ['GET', '/manifest.webmanifest', 'cors', 'shell'],
    // The session, signing in and out.
    ['GET', '/api/session', 'cors', 'session'],
    ['POST', '/api/session', 'cors', 'sign-in'],
    ['DELETE', '/api/session', 'cors', 'sign-out'],
    ['DELETE', '/api/account/sessions', 'cors', 'sign-out'],
    // The reads pages show, kept per account.
    ['GET', '/api/characters', 'cors', 'account-read'],
    ['GET', '/api/characters/7', 'cors', 'account-read'],
    ['GET', '/api/characters/7/progress', 'cors', 'account-read'],
    ['GET', '/api/characters/7/progress?life=2', 'cors', 'account-read'],
    ['GET', '/api/characters/7/next?by=xp&limit=8', 'cors', 'account-read'],
    ['GET', '/api/characters/7/quest-times', 'cors', 'account-read'],
    ['GET', '/api/characters/7/live', 'cors', 'account-read'],
    ['GET', '/api/characters/7/build', 'cors', 'account-read'],
    ['GET', '/api/characters/7/lives', 'cors', 'account-read'],
    ['GET', '/api/characters/7/past-lives', 'cors', 'account-read'],
    ['GET', '/api/characters/7/sagas', 'cors', 'account-read'],
    ['GET', '/api/past-lives', 'cors', 'account-read'],
    ['GET', '/api/routes?limit=50&offset=0', 'cors', 'account-read'],
    ['GET', '/api/routes/3', 'cors', 'account-read'],
    ['GET', '/api/navigation?characterId=7&routeId=3&match=setting', 'cors', 'account-read'],
    ['GET', '/api/account/settings', 'cors', 'account-read'],
    ['GET', '/api/quests', 'cors', 'public-read'],
    // Never kept: the event stream, downloads, tokens, the share view, health, the plugin API.
    ['GET', '/api/characters/7/events', 'cors', 'network'],
    ['GET', '/api/account/export', 'cors', 'network'],
    ['GET', '/api/characters/7/completions/csv', 'cors', 'network'],
    ['GET', '/api/characters/7/build/export', 'cors', 'network'],
    ['GET', '/api/account/tokens', 'cors', 'network'],
    ['GET', '/api/share/abc', 'cors', 'network'],
    ['GET', '/api/health', 'cors', 'network'],
    ['GET', '/api/plugin/characters', 'cors', 'network'],
    ['GET', '/sw.js', 'same-origin', 'network'],
    // Writes go to the server, always.
    ['POST', '/api/characters/7/completions', 'cors', 'network'],
    ['DELETE', '/api/characters/7/completions', 'cors', 'network'],
    ['PUT', '/api/characters/7/progress', 'cors', 'network'],
    ['HEAD', '/api/characters', 'cors', 'network'],
  ]
  for (const [method, path, mode, handling] of cases) {
    test(`${method} ${path} (${mode}): ${handling}`, () => {
      expect(handlingOf({ method, url: `${ORIGIN}${path}`, mode, origin: ORIGIN })).toBe(handling)
    })
  }

  test('another origin is never touched, whatever the path', () => {
    expect(
      handlingOf({ method: 'GET', url: 'https://evil.example/api/characters', mode: 'cors', origin: ORIGIN }),
    ).toBe('network')
    expect(handlingOf({ method: 'GET', url: 'https://evil.example/', mode: 'navigate', origin: ORIGIN })).toBe(
      'network',
    )
  })

  test('an answer is kept under its path and query, in its account’s own cache', () => {
    expect(keyOf(`${ORIGIN}/api/routes?limit=50&offset=0#x`)).toBe('/api/routes?limit=50&offset=0')
    expect(dataCacheName(3)).toBe('qt-data-3')
    expect(dataCacheName(3)).not.toBe(dataCacheName(4))
  })
})

describe('what a server answer does to the kept one', () => {
  const cases: [status: number, action: ReturnType<typeof onAnswer>][] = [
    [200, 'keep'],
    [404, 'keep'],
    [304, 'revalidated'],
    [401, 'forget-everyone'],
    [403, 'forget'],
    [400, 'leave'],
    [429, 'leave'],
    [503, 'leave'],
  ]
  for (const [status, action] of cases) test(`${status}: ${action}`, () => expect(onAnswer(status)).toBe(action))

  test('a kept answer is shown for as long as a session lives unused, and not after', () => {
    expect(OFFLINE_MAX_AGE_MS).toBe(SESSION_IDLE_MS)
    const now = Date.parse('2026-11-24T12:00:00Z')
    expect(isFresh('2026-11-24T11:00:00.000Z', now, OFFLINE_MAX_AGE_MS)).toBe(true)
    expect(isFresh(new Date(now - OFFLINE_MAX_AGE_MS).toISOString(), now, OFFLINE_MAX_AGE_MS)).toBe(true)
    expect(isFresh(new Date(now - OFFLINE_MAX_AGE_MS - 1).toISOString(), now, OFFLINE_MAX_AGE_MS)).toBe(false)
    expect(isFresh(null, now, OFFLINE_MAX_AGE_MS)).toBe(false)
    expect(isFresh('yesterday', now, OFFLINE_MAX_AGE_MS)).toBe(false)
  })

  test('the signed-in user is read from a session answer, and from nothing else', () => {
    expect(userIdOf({ user: { id: 7, username: 'alice' } })).toBe(7)
    for (const body of [null, {}, { user: null }, { user: { id: '7' } }, { user: { id: 1.5 } }, { error: 'x' }]) {
      expect(userIdOf(body)).toBeNull()
    }
  })
})

describe('the write queue reads the answer to a queued write', () => {
  const cases: [status: number, delivery: ReturnType<typeof deliveryOf>][] = [
    [200, 'sent'],
    [201, 'sent'],
    [0, 'retry'],
    [408, 'retry'],
    [429, 'retry'],
    [500, 'retry'],
    [503, 'retry'],
    [401, 'signed-out'],
    [400, 'refused'],
    [403, 'refused'],
    [404, 'refused'],
    [409, 'refused'],
    [413, 'refused'],
  ]
  for (const [status, delivery] of cases)
    test(`${status}: ${delivery}`, () => expect(deliveryOf(status)).toBe(delivery))

  test('each change says what it was', () => {
    const tick = { name: 'The Pit', difficulty: 'Heroic', setting: 'elite' } as const
    expect(describeChange({ kind: 'tick', ...tick, completedAt: '2026-11-24T12:00:00.000Z' })).toBe(
      'The Pit (Heroic), elite: ticked',
    )
    expect(describeChange({ kind: 'untick', ...tick })).toBe('The Pit (Heroic), elite: unticked')
    expect(describeChange({ kind: 'progress', patch: { levelBand: 255 } })).toBe(
      'filters and bonuses changed (levelBand)',
    )
    const write = {
      id: 1,
      account: 1,
      characterId: 1,
      characterName: 'A',
      queuedAt: '',
      change: { kind: 'untick', ...tick },
    } as const
    expect(isWaiting(write)).toBe(true)
    expect(isWaiting({ ...write, refused: 'No character 1 on this account.' })).toBe(false)
  })
})

describe("the tracker's progress with the queued changes on it", async () => {
  const t = testApp()
  const token = await t.userWithToken('queued')
  const id = ok(await t.plugin(token).characters.post({ givenName: 'Queued' }), 201).id
  ok(await t.plugin(token).characters({ id }).completions.post({ name: 'The Pit', difficulty: 'Heroic' }), 201)
  const progress = ok(await t.plugin(token).characters({ id }).progress.get())
  const key = (name: string, setting: 'elite' | 'hard') => ({ name, difficulty: 'Heroic' as const, setting })
  const at = '2026-11-24T12:00:00.000Z'
  const shown = (changes: QueuedChange[]) =>
    withQueued(progress, changes).completions.map((c) => `${c.name}/${c.setting}@${c.completedAt === at}`)

  test('nothing queued: the progress as it came', () => {
    expect(withQueued(progress, [])).toBe(progress)
  })

  test('a tick adds the completion once, at the time it was made; one already there stays as it was', () => {
    expect(shown([{ kind: 'tick', ...key("Tempest's Spine", 'elite'), completedAt: at }])).toEqual([
      "Tempest's Spine/elite@true",
      'The Pit/elite@false',
    ])
    expect(shown([{ kind: 'tick', ...key('The Pit', 'elite'), completedAt: at }])).toEqual(['The Pit/elite@false'])
  })

  test('in order: tick then untick is nothing, untick then tick is the tick', () => {
    const tick = { kind: 'tick', ...key("Tempest's Spine", 'hard'), completedAt: at } as const
    const untick = { kind: 'untick', ...key("Tempest's Spine", 'hard') } as const
    expect(shown([tick, untick])).toEqual(['The Pit/elite@false'])
    expect(shown([untick, tick])).toEqual(["Tempest's Spine/hard@true", 'The Pit/elite@false'])
    expect(shown([{ kind: 'untick', ...key('The Pit', 'elite') }])).toEqual([])
  })

  test('a filter change is made as the server makes it: Play on moves the Full XP level too', () => {
    const next = withQueued(progress, [{ kind: 'progress', patch: { targetDifficulty: 'reaper', levelBand: 255 } }])
    expect(next.levelBand).toBe(255)
    expect(next.targetDifficulty).toBe('reaper')
    expect(next.character.targetDifficulty).toBe('reaper')
    expect(next).toEqual(patchProgress(progress, { targetDifficulty: 'reaper', levelBand: 255 }))
  })

  test('an earlier life shows what it holds: queued changes go to the current one', () => {
    const earlier = { ...progress, life: { ...progress.life, current: false } }
    expect(withQueued(earlier, [{ kind: 'untick', ...key('The Pit', 'elite') }])).toBe(earlier)
  })
})
