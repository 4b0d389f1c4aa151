// The baseline: bare Bun.serve + bun:sqlite doing the same statements as the app for
// POST completions (token lookup, ownership check, the one upsert) and GET progress (token
// lookup, character, its completions), with the same pragmas and the same pure normaliser.
// No framework, no schema validation, no response validation.
// Usage: DATABASE_SYNCHRONOUS=normal|full PORT=8091 bun bench/bare.ts <database path>
import { Database } from 'bun:sqlite'
import { createHash } from 'node:crypto'
import { type CompletionInput, normalizeCompletion } from '../src/rules/completion'
import { minLevel, type PlayOn, totalLevel } from '../src/rules/levels'

const path = process.argv[2] ?? './data/bench.sqlite'
const sqlite = new Database(path, { strict: true })
sqlite.run('PRAGMA journal_mode = WAL')
sqlite.run(`PRAGMA synchronous = ${(process.env.DATABASE_SYNCHRONOUS ?? 'full').toUpperCase()}`)
sqlite.run('PRAGMA busy_timeout = 5000')
sqlite.run('PRAGMA foreign_keys = ON')

const authQuery = sqlite.query<{ userId: number }, [string]>(
  `select u.id as userId from api_tokens t join users u on u.id = t.user_id
   where t.token_hash = ? and t.revoked_at is null`,
)
const ownedQuery = sqlite.query<Record<string, unknown>, [number, number]>(
  'select * from characters where id = ? and user_id = ?',
)
const upsertQuery = sqlite.query<Record<string, unknown>, Record<string, string | number | null>>(
  `insert into completions (character_id, name, difficulty, setting, completed_at, duration_seconds,
     xp_earned, reaper_xp_earned, runs, updated_at)
   values ($characterId, coalesce((select name from quests where lower(name) = lower($name) order by name limit 1), $name),
     $difficulty, $setting, $completedAt, $durationSeconds, $xpEarned, $reaperXpEarned, 1, $now)
   on conflict (character_id, name, difficulty, setting) do update set
     completed_at = excluded.completed_at, xp_earned = excluded.xp_earned, runs = runs + 1,
     updated_at = excluded.updated_at
   returning name, difficulty, setting, completed_at as completedAt, duration_seconds as durationSeconds,
     xp_earned as xpEarned, reaper_xp_earned as reaperXpEarned, runs`,
)
const completionsQuery = sqlite.query<Record<string, unknown>, [number]>(
  `select name, difficulty, setting, completed_at as completedAt, duration_seconds as durationSeconds,
     xp_earned as xpEarned, reaper_xp_earned as reaperXpEarned
   from completions where character_id = ? order by completed_at desc, id desc`,
)

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

function userOf(request: Request): number | null {
  const match = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')
  if (!match) return null
  return (
    authQuery.get(
      createHash('sha256')
        .update(match[1] as string)
        .digest('hex'),
    )?.userId ?? null
  )
}

const server = Bun.serve({
  port: Number(process.env.PORT ?? 8091),
  async fetch(request) {
    const url = new URL(request.url)
    const m = /^\/api\/plugin\/characters\/(\d+)\/(completions|progress)$/.exec(url.pathname)
    if (!m) return json({ error: 'not found' }, 404)
    const userId = userOf(request)
    if (userId === null) return json({ error: 'unauthorized' }, 401)
    const characterId = Number(m[1])
    if (m[2] === 'completions' && request.method === 'POST') {
      const body = (await request.json()) as CompletionInput
      const c = normalizeCompletion(body)
      const now = new Date().toISOString()
      const row = sqlite.transaction(() => {
        if (!ownedQuery.get(characterId, userId)) return null
        return upsertQuery.get({
          characterId,
          name: c.name,
          difficulty: c.difficulty,
          setting: c.setting,
          completedAt: now,
          durationSeconds: c.durationSeconds ?? null,
          xpEarned: c.xpEarned ?? null,
          reaperXpEarned: c.reaperXpEarned ?? null,
          now,
        })
      })()
      if (!row) return json({ error: 'not found' }, 404)
      const { runs, ...completion } = row
      return json({ ok: true, completion }, runs === 1 ? 201 : 200)
    }
    if (m[2] === 'progress' && request.method === 'GET') {
      const row = ownedQuery.get(characterId, userId)
      if (!row) return json({ error: 'not found' }, 404)
      const classes = JSON.parse(row.classes as string)
      const level = (row.character_level_override as number | null) ?? totalLevel(classes, row.epic_levels as number)
      const done = completionsQuery.all(characterId)
      return json({
        character: {
          id: row.id,
          name: `${row.given_name} ${row.surname}`.trim(),
          targetDifficulty: row.target_difficulty,
        },
        minLevel: minLevel(level, row.target_difficulty as PlayOn),
        characterLevel: level,
        targetDifficulty: row.target_difficulty,
        levelBand: row.level_band,
        excludedPatrons: JSON.parse(row.excluded_patrons as string),
        versionFilter: JSON.parse(row.version_filter as string),
        xpBoosts: JSON.parse(row.xp_boosts as string),
        optionalPursuit: JSON.parse(row.optional_pursuit as string),
        packState: JSON.parse(row.pack_state as string),
        questNotes: JSON.parse(row.quest_notes as string),
        completions: done,
        completedQuests: [...new Set(done.map((c) => c.name as string))].sort(),
      })
    }
    return json({ error: 'not found' }, 404)
  },
})
console.log(`bare server on port ${server.port}`)
