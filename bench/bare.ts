// The baseline: bare Bun.serve + bun:sqlite doing the same work as the app for every request of
// bench/floor.ts: the same SQL statements (token or session lookup, ownership in the query, the
// lives of the character, the same reads, and the upsert with its run, the runs kept, the
// character's runs counted against their bound, and the cap), the same pure rules (completion
// normaliser, catalog spelling, lives, levels, the level band, navigate, the catalog index), the
// same ETags and the same JSON out, with the same pragmas, but no framework, no schema
// validation, no ORM and no request log. bench/floor.ts checks that both answer the same JSON.
// Usage: DATABASE_SYNCHRONOUS=normal|full bun bench/bare.ts <database path> [port]
//        (prints {"port": N} on its first line)
import { Database } from 'bun:sqlite'
import { tierOf } from '../src/modules/catalog/parse'
import { CatalogIndex } from '../src/modules/catalog/search'
import { publicSourceName } from '../src/modules/catalog/sources'
import {
  MAX_COMPLETIONS_PER_CHARACTER,
  MAX_RUNS_PER_CHARACTER,
  MAX_RUNS_PER_COMPLETION,
} from '../src/modules/completions/limits'
import { classSummary, heroicLevel, minLevel, type PlayOn, totalLevel } from '../src/rules/character/levels'
import { type CompletionInput, normalizeCompletion } from '../src/rules/quests/completion'
import { levelRange } from '../src/rules/quests/levelBand'
import { currentLifeOf, currentQuestLifeOf, type LifeWindow, lifeOfRun } from '../src/rules/quests/runs'
import { type MatchMode, navigate } from '../src/rules/routes/navigation'
import { parseTimestamp } from '../src/rules/timestamp'

type Row = Record<string, unknown>
type ClassLevels = { name: string; levels: number }[]

/** The bare server's request handler on the database at `path`. */
export function bareHandler(path: string, synchronous = process.env.DATABASE_SYNCHRONOUS ?? 'full') {
  const sqlite = new Database(path, { strict: true })
  sqlite.run('PRAGMA journal_mode = WAL')
  sqlite.run('PRAGMA wal_autocheckpoint = 100')
  sqlite.run(`PRAGMA synchronous = ${synchronous.toUpperCase()}`)
  sqlite.run('PRAGMA busy_timeout = 5000')
  sqlite.run('PRAGMA foreign_keys = ON')

  const tokenQuery = sqlite.query<Row, [string]>(
    `select t.id as tokenId, t.created_at as createdAt, t.last_used_at as lastUsedAt, u.id as id,
       u.email as email, u.username as username
     from api_tokens t join users u on u.id = t.user_id where t.token_hash = ? and t.revoked_at is null`,
  )
  const sessionQuery = sqlite.query<Row, [string, string]>(
    `select s.id as id, s.expires_at as expiresAt, u.id as userId, u.email as email, u.username as username
     from sessions s join users u on u.id = s.user_id
     where s.token_hash = ? and s.revoked_at is null and s.expires_at > ?`,
  )
  const ownedQuery = sqlite.query<Row, [number, number]>('select * from characters where id = ? and user_id = ?')
  const ownsQuery = sqlite.query<Row, [number, number]>('select id from characters where id = ? and user_id = ?')
  // Of the current quest life (1 before any life is recorded), as the tracker counts them.
  const listQuery = sqlite.query<Row, [number]>(
    `select *, (select count(distinct c.name) from completions c where c.character_id = characters.id
       and c.life_index = coalesce((select l.quest_life from lives l where l.character_id = characters.id
       and l.is_current = 1), 1)) as questsDone
     from characters where user_id = ? order by id`,
  )
  const livesQuery = sqlite.query<
    { lifeIndex: number; questLife: number; isCurrent: number; createdAt: string; archivedAt: string | null },
    [number]
  >(
    `select life_index as lifeIndex, quest_life as questLife, is_current as isCurrent, created_at as createdAt, archived_at as archivedAt
     from lives where character_id = ?`,
  )
  const windowsOf = (characterId: number): LifeWindow[] =>
    livesQuery.all(characterId).map((life) => ({ ...life, isCurrent: life.isCurrent === 1 }))
  // The row holds the latest run; an omitted figure of the latest run keeps the stored one.
  const latest = 'excluded.completed_at >= completed_at'
  // The skull count is the most of every run's, whenever it was run.
  const upsertQuery = sqlite.query<Row, Record<string, string | number | null>>(
    `insert into completions (character_id, life_index, name, difficulty, setting, completed_at, duration_seconds,
       xp_earned, reaper_xp_earned, reaper_skulls, runs, updated_at)
     values ($characterId, $lifeIndex, $name, $difficulty, $setting, $completedAt, $durationSeconds, $xpEarned,
       $reaperXpEarned, $reaperSkulls, 1, $now)
     on conflict (character_id, life_index, name, difficulty, setting) do update set
       completed_at = max(completed_at, excluded.completed_at),
       duration_seconds = case when ${latest} and not $keepDuration then excluded.duration_seconds else duration_seconds end,
       xp_earned = case when ${latest} and not $keepXp then excluded.xp_earned else xp_earned end,
       reaper_xp_earned = case when ${latest} and not $keepReaperXp then excluded.reaper_xp_earned else reaper_xp_earned end,
       reaper_skulls = nullif(max(coalesce(reaper_skulls, 0), coalesce(excluded.reaper_skulls, 0)), 0),
       runs = runs + 1, updated_at = excluded.updated_at
     returning id, name, difficulty, setting, completed_at as completedAt, duration_seconds as durationSeconds,
       xp_earned as xpEarned, reaper_xp_earned as reaperXpEarned, reaper_skulls as reaperSkulls, runs`,
  )
  const insertRunQuery = sqlite.query<Row, Record<string, string | number | null>>(
    `insert into runs (completion_id, completed_at, duration_seconds, xp_earned, reaper_xp_earned, reaper_skulls)
     values ($completionId, $completedAt, $durationSeconds, $xpEarned, $reaperXpEarned, $reaperSkulls)
     on conflict do nothing returning id`,
  )
  const pruneRunsQuery = sqlite.query<Row, [number, number, number]>(
    `delete from runs where completion_id = ? and completed_at < (select r.completed_at from runs r
       where r.completion_id = ? order by r.completed_at desc limit 1 offset ?)`,
  )
  const resentRunQuery = sqlite.query<Row, Record<string, string | number | null>>(
    `update runs set duration_seconds = case when $keepDuration then duration_seconds else $durationSeconds end,
       xp_earned = case when $keepXp then xp_earned else $xpEarned end,
       reaper_xp_earned = case when $keepReaperXp then reaper_xp_earned else $reaperXpEarned end,
       reaper_skulls = case when $keepSkulls then reaper_skulls else $reaperSkulls end
     where completion_id = $completionId and completed_at = $completedAt`,
  )
  const resentCountQuery = sqlite.query<Row, [number]>('update completions set runs = runs - 1 where id = ?')
  const countQuery = sqlite.query<{ n: number }, [number]>(
    'select count(*) as n from completions where character_id = ?',
  )
  const keptRunsQuery = sqlite.query<{ n: number }, [number]>('select kept_runs as n from characters where id = ?')
  const completionsQuery = sqlite.query<Row, [number, number]>(
    `select name, difficulty, setting, completed_at as completedAt, duration_seconds as durationSeconds,
       xp_earned as xpEarned, reaper_xp_earned as reaperXpEarned, reaper_skulls as reaperSkulls
     from completions where character_id = ? and life_index = ? order by completed_at desc, id desc`,
  )
  const routeQuery = sqlite.query<{ id: number; name: string }, [number]>('select id, name from routes where id = ?')
  const stepsQuery = sqlite.query<{ position: number; name: string; difficulty: string; setting: string }, [number]>(
    'select position, name, difficulty, setting from route_steps where route_id = ? order by position',
  )
  const loggedQuery = sqlite.query<
    { id: number; name: string; difficulty: string; setting: string; completedAt: string; durationSeconds: number },
    [number, number]
  >(
    `select id, name, difficulty, setting, completed_at as completedAt, duration_seconds as durationSeconds
     from completions where character_id = ? and life_index = ?`,
  )
  // Conditional reads: a version per character, moved on by each write, and SQLite's count of
  // other connections' commits, as the app's ETags (src/http/etag.ts).
  const dataVersionQuery = sqlite.prepare<{ data_version: number }, []>('PRAGMA data_version')
  const versions = new Map<number, number>()
  const nonce = Bun.randomUUIDv7().slice(-12)
  const tagOf = (characterId: number, version: number) => `"${nonce}.${version}.${versions.get(characterId) ?? 0}"`
  const TAGGED = { 'cache-control': 'private, no-cache' }
  const stampQuery = sqlite.query<Row, []>('select * from catalog_state where id = 1')
  const questsQuery = sqlite.query<Row, []>(
    `select name, difficulty, level, solo_xp as soloXP, normal_xp as normalXP, hard_xp as hardXP,
       elite_xp as eliteXP, duration, pack, patron, favor, quest_id as questId, group_size as groupSize,
       free_to_vip as freeToVip from quests order by id`,
  )
  // As the app reads the rows (readCatalogRows): the remake as a tier, the flag a boolean.
  const catalogRows = () =>
    questsQuery.all().map((row) => ({
      ...row,
      difficulty: tierOf(row.difficulty as string) ?? 'Heroic',
      freeToVip: row.freeToVip === null ? null : row.freeToVip === 1,
    }))

  const timesQuery = sqlite.query<Row, []>(
    `select name, difficulty, setting, timed_runs as runs, median_duration_seconds as medianDurationSeconds,
       median_xp_per_minute as medianXpPerMinute from quest_times
     where median_duration_seconds is not null or median_xp_per_minute is not null`,
  )

  // The catalog, read once per sync like the app's index (with the server's quest times, as the
  // lists show them); every request reads the stamp.
  let catalog: { stamp: string; etag: string; index: CatalogIndex; listed: Row[] } | undefined
  const currentCatalog = () => {
    const state = stampQuery.get()
    const stamp = state ? `${state.synced_at}\u0000${state.rows}\u0000${state.source}` : 'never synced'
    if (catalog?.stamp !== stamp) {
      const etag = new Bun.CryptoHasher('sha1').update(stamp).digest('base64url').slice(0, 16)
      const index = new CatalogIndex(catalogRows() as never)
      const times = new Map<string, Row[]>()
      for (const { name, difficulty, ...time } of timesQuery.all()) {
        const key = `${name}\u0000${difficulty}`
        times.set(key, [...(times.get(key) ?? []), time])
      }
      const listed = index.rows.map((row) => ({ ...row, times: times.get(`${row.name}\u0000${row.difficulty}`) ?? [] }))
      catalog = { stamp, etag, index, listed }
    }
    return catalog
  }

  // The app's answers on the plugin API and health carry both (Access-Control-Expose-Headers
  // lets a page of another origin read the ETag).
  const cors = { 'access-control-allow-origin': '*', 'access-control-expose-headers': '*' }
  const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
    Response.json(body, { status, headers: { ...cors, ...headers } })
  const sha256 = (text: string) => Bun.SHA256.hash(text, 'hex')
  const publicUser = (row: Row) => ({
    id: row.id,
    email: row.email,
    username: row.username,
    displayName: row.username ?? 'Player',
  })

  // Look-ups kept while no other connection wrote, as the app keeps them (src/db/freshness.ts):
  // this server's own writes (completions) never change a credential or a character's owner,
  // so SQLite's data_version alone says whether they still hold. Read once per turn of the event
  // loop, as the app reads it: every request of a turn arrived before the turn began.
  let keptVersion = -1
  const keptTokens = new Map<string, ReturnType<typeof publicUser>>()
  const keptSessions = new Map<string, { user: ReturnType<typeof publicUser>; expiresAt: string }>()
  const keptOwners = new Set<string>()
  let versionNow: number | undefined
  const forgetVersion = () => {
    versionNow = undefined
  }
  function fresh(): number {
    if (versionNow === undefined) {
      versionNow = dataVersionQuery.get()?.data_version as number
      setImmediate(forgetVersion)
    }
    const version = versionNow
    if (version !== keptVersion) {
      keptTokens.clear()
      keptSessions.clear()
      keptOwners.clear()
      keptVersion = version
    }
    return version
  }
  const owns = (characterId: number, userId: number) => {
    const key = `${characterId}:${userId}`
    if (keptOwners.has(key)) return true
    if (!ownsQuery.get(characterId, userId)) return false
    keptOwners.add(key)
    return true
  }

  function bearer(request: Request) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')
    if (!match) return null
    const hash = sha256(match[1] as string)
    const kept = keptTokens.get(hash)
    if (kept) return kept
    const row = tokenQuery.get(hash)
    if (!row) return null
    const user = publicUser(row)
    keptTokens.set(hash, user)
    return user
  }

  function session(request: Request) {
    const match = /(?:^|;\s*)qt_session=([^;]+)/.exec(request.headers.get('cookie') ?? '')
    if (!match) return null
    const hash = sha256(match[1] as string)
    const now = new Date().toISOString()
    let kept = keptSessions.get(hash)
    if (!kept) {
      const row = sessionQuery.get(hash, now)
      if (!row) return null
      kept = { user: publicUser({ ...row, id: row.userId }), expiresAt: row.expiresAt as string }
      keptSessions.set(hash, kept)
    }
    return kept.expiresAt > now ? kept.user : null
  }

  const displayName = (row: Row) => (row.surname ? `${row.given_name} ${row.surname}` : (row.given_name as string))
  const levelOf = (row: Row, classes: ClassLevels) =>
    (row.character_level_override as number | null) ?? totalLevel(classes, row.epic_levels as number)

  function characterJson(row: Row) {
    const classes = JSON.parse(row.classes as string) as ClassLevels
    const total = totalLevel(classes, row.epic_levels as number)
    return {
      id: row.id,
      name: displayName(row),
      givenName: row.given_name,
      firstName: row.given_name,
      surname: row.surname,
      race: row.race,
      gender: row.gender,
      alignment: row.alignment,
      server: row.server,
      guild: row.guild,
      classes,
      classSummary: classSummary(classes),
      epicLevels: row.epic_levels,
      heroicLevel: heroicLevel(classes),
      totalLevel: total,
      characterLevel: total,
      minLevel: minLevel(levelOf(row, classes), row.target_difficulty as PlayOn),
      lastLoginAt: row.last_login_at,
      targetDifficulty: row.target_difficulty,
      levelBand: row.level_band,
      levelsBelow: row.levels_below,
      levelsAbove: row.levels_above,
      ...trackerFilters(row),
      shareToken: row.share_token,
      shareUrl: `/s/${row.share_token}`,
      shared: row.shared === 1,
      questsDone: row.questsDone,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    }
  }

  /** The tracker filters a character and its progress both show, stored as JSON text. */
  const trackerFilters = (row: Row) => ({
    excludedPatrons: JSON.parse(row.excluded_patrons as string),
    versionFilter: JSON.parse(row.version_filter as string),
    xpBoosts: JSON.parse(row.xp_boosts as string),
    optionalPursuit: JSON.parse(row.optional_pursuit as string),
  })

  function progress(row: Row) {
    const level = levelOf(row, JSON.parse(row.classes as string))
    const playOn = row.target_difficulty as PlayOn
    const choice = { levelsBelow: row.levels_below as number | null, levelsAbove: row.levels_above as number | null }
    const band = levelRange(level, playOn, choice)
    // The current life, the quest life it is in (whose completions it shows) and every quest life.
    const windows = windowsOf(row.id as number)
    const current = currentLifeOf(windows)
    const questLife = windows.find((life) => life.lifeIndex === current)?.questLife ?? current
    const done = completionsQuery.all(row.id as number, questLife)
    return {
      character: { id: row.id, name: displayName(row), targetDifficulty: row.target_difficulty },
      minLevel: minLevel(level, playOn),
      characterLevel: level,
      levelFrom: band.from,
      levelTo: band.to,
      targetDifficulty: row.target_difficulty,
      levelBand: row.level_band,
      ...choice,
      ...trackerFilters(row),
      packState: JSON.parse(row.pack_state as string),
      questNotes: JSON.parse(row.quest_notes as string),
      completions: done,
      completedQuests: [...new Set(done.map((c) => c.name as string))].sort(),
      life: {
        index: current,
        current: true,
        count: Math.max(current, ...windows.map((life) => life.lifeIndex)),
        questLife,
        questLives: [...new Set([1, ...windows.map((life) => life.questLife)])].sort((a, b) => a - b),
      },
    }
  }

  const notFound = () => json({ error: 'not found' }, 404)
  const CHARACTER = /^\/api(\/plugin)?\/characters\/(\d+)\/(completions|progress)$/
  const PLAIN = /^\/plain\/characters\/(\d+)$/
  const escapeHtml = (text: unknown) =>
    String(text ?? '').replace(
      /[&<>"]/g,
      (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string,
    )
  const TICKS = ['casual', 'normal', 'hard', 'elite', 'reaper']

  /**
   * The tracker's rows as a plain HTML page, rendered here: what a browser needs at least to show
   * them (bench/trackerFeel.bench.ts compares the tracker's cold load with this page's).
   */
  function plainPage(row: Row): Response {
    const done = new Set<string>()
    for (const c of completionsQuery.all(row.id as number, currentQuestLifeOf(windowsOf(row.id as number)))) {
      done.add(`${c.name}\u0000${c.difficulty}\u0000${c.setting}`)
    }
    const ticked = (name: string, tier: string, setting: string) =>
      done.has(`${name}\u0000${tier}\u0000${setting}`) || done.has(`${name}\u0000Unknown\u0000${setting}`)
    const rows = currentCatalog().listed.map((q) => {
      const boxes = TICKS.map(
        (setting) =>
          `<td><input type="checkbox" aria-label="${setting}"${ticked(q.name as string, q.difficulty as string, setting) ? ' checked' : ''}></td>`,
      ).join('')
      return `<tr data-quest="${escapeHtml(q.name)}" data-difficulty="${q.difficulty}"><th>${escapeHtml(q.name)}</th><td>${q.difficulty}</td><td>${q.level}</td><td>${escapeHtml(q.pack)}</td><td>${escapeHtml(q.patron)}</td><td>${q.favor ?? '—'}</td><td>${q.eliteXP ?? '—'}</td><td>${escapeHtml(q.duration)}</td><td>—</td>${boxes}</tr>`
    })
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(displayName(row))}</title></head><body><table><tbody>${rows.join('')}</tbody></table></body></html>`
    return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } })
  }

  return async function fetch(request: Request): Promise<Response> {
    const url = new URL(request.url)
    const path = url.pathname
    if (path === '/api/health') {
      // The app's health check reads the schema version (a file that cannot be read answers 503).
      const schema = sqlite.query<{ n: number }, []>('SELECT count(*) AS n FROM __drizzle_migrations').get()
      // And the catalog's provenance (one primary-key read), as the app's answer carries it.
      const state = sqlite
        .query<{ source: string; synced_at: string; rows: number; origin: string; attempts: string }, []>(
          'SELECT source, synced_at, rows, origin, attempts FROM catalog_state WHERE id = 1',
        )
        .get()
      const catalog = state
        ? {
            rows: state.rows,
            origin: state.origin,
            source: publicSourceName(state.source),
            syncedAt: state.origin === 'sync' ? state.synced_at : null,
            asOf: state.synced_at,
            attempts: JSON.parse(state.attempts),
          }
        : { rows: 0, origin: 'none', source: '', syncedAt: null, asOf: null, attempts: [] }
      return json({ ok: true, schemaVersion: schema?.n, catalog })
    }
    if (path === '/api/quests') {
      const { etag, listed } = currentCatalog()
      const quoted = `"${etag}"`
      // A 304 carries what the 200 would have of its caching (RFC 9110 §15.4.5), as the app's does.
      if (request.headers.get('if-none-match') === quoted)
        return new Response(null, { status: 304, headers: { etag: quoted, 'cache-control': 'no-cache' } })
      return json({ count: listed.length, quests: listed }, 200, {
        etag: quoted,
        'cache-control': 'no-cache',
      })
    }
    const plain = PLAIN.exec(path)
    if (plain) {
      fresh()
      const user = session(request)
      const row = user ? ownedQuery.get(Number(plain[1]), user.id as number) : null
      return row ? plainPage(row) : notFound()
    }
    const character = CHARACTER.exec(path)
    const version = fresh()
    const user = character && !character[1] ? session(request) : bearer(request)
    if (!user) return json({ error: 'unauthorized' }, 401)
    if (path === '/api/plugin/auth/me') return json(user)
    if (path === '/api/plugin/characters') {
      const rows = listQuery.all(user.id as number)
      let ids = `${user.id}`
      for (const r of rows) ids += `,${r.id}.${versions.get(r.id as number) ?? 0}`
      const tag = `"${nonce}.${version}.u${user.id}.${Bun.hash(ids).toString(36)}"`
      return json({ characters: rows.map(characterJson) }, 200, { ...TAGGED, etag: tag })
    }
    if (path === '/api/plugin/quests') {
      const { listed } = currentCatalog()
      return json({ count: listed.length, quests: listed })
    }
    if (path === '/api/plugin/quests/search') {
      const query = (url.searchParams.get('q') ?? '').trim()
      const levelParam = url.searchParams.get('level')
      const level = levelParam === null ? null : Number(levelParam)
      const limit = Number(url.searchParams.get('limit') ?? 20)
      const result = currentCatalog().index.search({ query, difficulty: null, level, limit })
      return json({
        query,
        count: result.quests.length,
        totalMatches: result.totalMatches,
        level,
        quests: result.quests,
      })
    }
    if (path === '/api/plugin/navigation') {
      const characterId = Number(url.searchParams.get('characterId'))
      const routeId = Number(url.searchParams.get('routeId'))
      const match = (url.searchParams.get('match') ?? 'setting') as MatchMode
      const row = ownedQuery.get(characterId, user.id as number)
      const route = row ? routeQuery.get(routeId) : null
      if (!row || !route) return notFound()
      const steps = stepsQuery.all(route.id)
      const logged = loggedQuery.all(characterId, currentQuestLifeOf(windowsOf(characterId)))
      return json(
        {
          character: {
            id: row.id,
            name: [row.given_name, row.surname].filter((part) => part !== '').join(' '),
            targetDifficulty: row.target_difficulty,
          },
          route,
          match,
          ...navigate(steps, logged, match),
        },
        200,
        // No route changes here: its version stays 0.
        { ...TAGGED, etag: `${tagOf(characterId, version).slice(0, -1)}.r${routeId}.0"` },
      )
    }
    if (!character) return notFound()
    const characterId = Number(character[2])
    if (character[3] === 'progress' && request.method === 'GET') {
      if (!owns(characterId, user.id as number)) return notFound()
      const tag = tagOf(characterId, version)
      if (request.headers.get('if-none-match') === tag)
        return new Response(null, { status: 304, headers: { ...cors, ...TAGGED, etag: tag } })
      const row = ownedQuery.get(characterId, user.id as number)
      return row ? json(progress(row), 200, { ...TAGGED, etag: tag }) : notFound()
    }
    if (character[3] === 'completions' && request.method === 'POST') {
      const c = normalizeCompletion((await request.json()) as CompletionInput)
      const now = new Date().toISOString()
      const completedAt = (c.completedAt ? parseTimestamp(c.completedAt) : null) ?? now
      const figures = {
        completedAt,
        durationSeconds: c.durationSeconds ?? null,
        xpEarned: c.xpEarned ?? null,
        reaperXpEarned: c.reaperXpEarned ?? null,
        reaperSkulls: c.reaperSkulls ?? null,
      }
      const keep = {
        keepDuration: c.durationSeconds === undefined ? 1 : 0,
        keepXp: c.xpEarned === undefined ? 1 : 0,
        keepReaperXp: c.reaperXpEarned === undefined ? 1 : 0,
        keepSkulls: c.reaperSkulls === undefined ? 1 : 0,
      }
      const tier = c.difficulty ? tierOf(c.difficulty) : null
      const result = sqlite
        .transaction(() => {
          if (!ownsQuery.get(characterId, user.id as number)) return null
          const row = upsertQuery.get({
            characterId,
            lifeIndex: lifeOfRun(windowsOf(characterId), completedAt),
            name: currentCatalog().index.resolveName(c.name, tier),
            difficulty: c.difficulty,
            setting: c.setting,
            ...figures,
            ...keep,
            now,
          }) as Row
          const completionId = row.id as number
          if (insertRunQuery.get({ completionId, ...figures }))
            pruneRunsQuery.run(completionId, completionId, MAX_RUNS_PER_COMPLETION - 1)
          else {
            resentRunQuery.run({ completionId, ...figures, ...keep })
            resentCountQuery.run(completionId)
          }
          if (row.runs === 1 && (countQuery.get(characterId)?.n ?? 0) > MAX_COMPLETIONS_PER_CHARACTER)
            throw new Error('at the cap')
          // The app reads the count too, and drops the oldest runs past the bound (no bench reaches it).
          if ((keptRunsQuery.get(characterId)?.n ?? 0) > MAX_RUNS_PER_CHARACTER) throw new Error('past the runs bound')
          return row
        })
        .immediate()
      if (!result) return notFound()
      versions.set(characterId, (versions.get(characterId) ?? 0) + 1)
      const { id: _id, runs, ...completion } = result
      return json({ ok: true, completion }, runs === 1 ? 201 : 200)
    }
    return notFound()
  }
}

export function startBare(path: string, port = 0) {
  const server = Bun.serve({ port, hostname: '127.0.0.1', fetch: bareHandler(path) })
  return { port: server.port as number, stop: () => server.stop(true) }
}

if (import.meta.main) {
  const path = Bun.argv[2]
  if (!path) throw new Error('usage: bun bench/bare.ts <database path> [port]')
  const { port } = startBare(path, Number(Bun.argv[3] ?? 0))
  console.log(JSON.stringify({ port }))
}
