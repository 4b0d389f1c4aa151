// The "Conventions" section of the Markdown reference: what every operation shares and a client
// must know beyond the schemas (authentication, errors, ids, timestamps, the names of remakes and
// settings, quest names, aliases, upserts, past-life feats, the tracker's shapes, limits). Every
// number and name comes from the code's own constants, tables and functions, and the aliases and
// error statuses from the OpenAPI document, so this text cannot drift from what the server does.
import { DEFAULT_TOKEN_IDLE_DAYS } from '../config'
import { DOC_PATHS, PLUGIN_PREFIX } from '../http/api'
import { BODY_TIME_LIMIT_MS, MAX_BODY_BYTES, MAX_BODY_DEPTH } from '../http/body'
import { DATABASE_BUSY_RETRY_SECONDS } from '../http/plumbing'
import { kib } from '../http/size'
import { isPlainObject, type Json } from '../json'
import { MAX_TOKENS_PER_ACCOUNT } from '../modules/auth/limits'
import {
  MAX_HASHING,
  MAX_HASHING_QUEUED,
  MAX_IN_FLIGHT_PER_ADDRESS,
  MAX_IN_FLIGHT_PER_NAME,
} from '../modules/auth/loginGuard'
import { MAX_IDENTIFIER_LENGTH, MAX_PASSWORD_LENGTH, MAX_SIGN_IN_BODY_BYTES } from '../modules/auth/model'
import { TOKEN_PREFIX, TOKEN_TOUCH_MS } from '../modules/auth/service'
import { ADDRESS_BURST, ADDRESS_REFILL_MS, FIRST_LOCK_MS, MAX_FAILURES, MAX_LOCK_MS } from '../modules/auth/throttle'
import * as builds from '../modules/builds/limits'
import { DEFAULT_SEARCH_LIMIT, MAX_CHARACTER_LEVEL, MAX_SEARCH_LIMIT } from '../modules/catalog/limits'
import { SNAPSHOT } from '../modules/catalog/snapshot'
import { MAX_CHARACTERS_PER_ACCOUNT } from '../modules/characters/limits'
import { VERSION_FLAGS } from '../modules/characters/model'
import { MAX_COMPLETIONS_PER_CHARACTER } from '../modules/completions/limits'
import { MAX_DURATION_SECONDS, MAX_XP } from '../modules/completions/model'
import { MAX_EXCLUDED_PATRONS, MAX_TRACKER_FIELD_BYTES } from '../modules/progress/limits'
import * as routes from '../modules/routes/limits'
import { CLASSES, MAX_PAST_LIFE_STACKS, PAST_LIFE_TYPES, RACES } from '../rules/character/gameData'
import { MAX_CLASS_LEVEL, MAX_EPIC_LEVELS, MAX_MULTICLASS, MAX_TOTAL_LEVEL, PLAY_ON } from '../rules/character/levels'
import { heroicPastLife, racialPastLife } from '../rules/character/pastLives'
import {
  CHALLENGE_SETTINGS,
  DEFAULT_SETTING,
  MAX_REAPER_SKULLS,
  MIN_REAPER_SKULLS,
  REMAKE_TIERS,
} from '../rules/quests/completion'
import { LEVEL_BAND_ANY, LEVEL_BAND_FULL_XP, VERSION_TIERS } from '../rules/quests/tracker'
import { XP_BONUSES } from '../rules/quests/xp'
import { SETTING_ORDER } from '../rules/routes/navigation'
import {
  DEFAULT_STEP_DIFFICULTY,
  DEFAULT_STEP_SETTING,
  STEP_DIFFICULTIES,
  STEP_SETTINGS,
} from '../rules/routes/routeStep'
import { parseTimestamp } from '../rules/timestamp'
import type { OpenApiDocument } from './openapi'
import { TypeRegistry } from './referenceTypes'

export interface ConventionOptions {
  /** This server's TOKEN_IDLE_DAYS. */
  tokenIdleDays?: number
}

const n = (value: number) => value.toLocaleString('en-US')
const code = (value: string) => `\`${value}\``
const list = (values: readonly string[]) => values.map(code).join(', ')
const minutes = (ms: number) => (ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : `${ms / 60_000} min`)
const mib = (bytes: number) => `${bytes / 1024 / 1024} MiB`

/** The `setting` words that delete every setting of a remake (completion.ts keeps them private; the tests check them with deleteScope). */
export const ALL_SETTINGS_WORDS = ['all', 'any', '*']

/** Past-life feat names as the reincarnation code grants them (heroicPastLife, racialPastLife). */
export const pastLifeExamples = () => ({
  heroic: heroicPastLife('Fighter').name,
  archetype: heroicPastLife('Sacred Fist').name,
  racial: racialPastLife('Drow Elf'),
  iconic: racialPastLife('Dhampir Dark Bargainer'),
  woodElf: racialPastLife('Wood Elf').name,
  unknownName: heroicPastLife('<name>').name,
})

export function renderConventions(doc: OpenApiDocument, types: TypeRegistry, options: ConventionOptions): string[] {
  const idleDays = options.tokenIdleDays ?? DEFAULT_TOKEN_IDLE_DAYS
  const error = types.has('Error') ? TypeRegistry.link('Error') : '`{"error": "<sentence>"}`'
  return [
    '## Conventions',
    '',
    '### Requests and answers',
    '',
    `- Every plugin operation is under \`${PLUGIN_PREFIX}\` (paths below are full paths). The Markdown reference (\`${PLUGIN_PREFIX}/\`, \`${DOC_PATHS.docs}\`), the OpenAPI document and \`GET /api/health\` need no token.`,
    `- Request bodies are JSON objects, read as JSON whatever the \`Content-Type\` says; at most ${mib(MAX_BODY_BYTES)} (${kib(MAX_SIGN_IN_BODY_BYTES)} for the login; 413 beyond, as soon as the body passes it) and ${MAX_BODY_DEPTH} levels deep (400 beyond), all there within ${BODY_TIME_LIMIT_MS / 1000} s (408 beyond). Without a valid token, a body is not read at all: 401 at once. After a 401, 408 or 413 on a body not read to its end, the server closes the connection. An empty body is no body. Answers are JSON (\`application/json\`), except this reference (\`text/markdown\`).`,
    "- CORS: every origin (`*`), never with credentials: clients authenticate with the bearer token, not cookies. The website's session cookie is not accepted under `/api/plugin`.",
    '- Fields a schema does not list are ignored in requests, except in build documents, which keep every key they are sent (see "Writes").',
    '',
    '### Authentication and tokens',
    '',
    `- \`POST ${PLUGIN_PREFIX}/auth/login\` with \`identifier\` (a username or an e-mail, any case) and \`password\` answers a \`token\`. Send it as \`Authorization: Bearer <token>\` on every other plugin operation. Tokens start with \`${TOKEN_PREFIX}\`; the server keeps only their SHA-256, so a token is shown once, at login. Each login makes a new token (its \`label\`, default \`plugin\`, names it in the account page and \`token list\`).`,
    `- Lifetime: a token works until it is revoked or goes unused for ${n(idleDays)} days on this server (\`TOKEN_IDLE_DAYS\`, default ${n(DEFAULT_TOKEN_IDLE_DAYS)}); its last use is recorded at most once every ${minutes(TOKEN_TOUCH_MS)}. Then every request answers 401 and the client logs in again. \`POST ${PLUGIN_PREFIX}/auth/logout\` revokes the token it is sent with; the website's account page and the admin's \`token revoke\` revoke one, a new password every token of the account. An account keeps at most ${n(MAX_TOKENS_PER_ACCOUNT)} live tokens: a login beyond that deletes the least recently used one (and the account's revoked and expired ones); the login itself always works.`,
    '- 401 means: no token, a malformed `Authorization` header, an unknown, revoked or expired token, or (at login) a wrong name or password; a wrong name and a wrong password answer the same.',
    `- Login limits: after ${MAX_FAILURES} failed logins in a row with one name (username or e-mail), that name is refused (429 with \`Retry-After\`) for ${minutes(FIRST_LOCK_MS)}, each further lock twice as long up to ${minutes(MAX_LOCK_MS)}; an account gets ${MAX_FAILURES} password checks per lock whichever of its names is tried (beyond them its other name answers 401, like a wrong password); a client address gets ${ADDRESS_BURST} failures, then one more every ${ADDRESS_REFILL_MS / 1000} s (429); at most ${MAX_HASHING} passwords are checked at once and ${MAX_HASHING_QUEUED} wait, one name's logins one at a time; one name may hold ${MAX_IN_FLIGHT_PER_NAME} of those places and one address ${MAX_IN_FLIGHT_PER_ADDRESS} (429 with \`Retry-After\` beyond); any further login is 503 with \`Retry-After\`. Logins sent at once with the right password all succeed. \`identifier\` (and its aliases) may be ${n(MAX_IDENTIFIER_LENGTH)} characters, \`password\` ${n(MAX_PASSWORD_LENGTH)}.`,
    '',
    '### Errors and statuses',
    '',
    `Every error is ${error}: \`{"error": "<a sentence>"}\`, sometimes with more fields; a 500 never carries a stack trace. A 400 sentence names the field (\`Body field "classes.0.levels" must be …\`, \`Query parameter "limit" must be …\`). The statuses, as the operations below list them:`,
    '',
    '| status | meaning |',
    '|---|---|',
    ...errorStatuses(doc).map(([status, meaning]) => `| ${status} | ${meaning.replaceAll('|', '\\|')} |`),
    '',
    `- 400 means "fix this request" (nothing was written); 409 means the request is fine but what is stored forbids it (a quota is full) and the same request works once something is deleted; 413 is measured on what would be stored, since a merge can grow a document past its limit with small requests. 429 and 503 carry \`Retry-After\` (seconds; ${DATABASE_BUSY_RETRY_SECONDS} when the database is busy).`,
    "- Another account's character (or anything else it owns) answers 404, exactly like one that does not exist; nothing of it changes.",
    '',
    '### Ids',
    '',
    '- Ids (`id`, `tokenId`, `characterId`, `routeId`) are integers the server assigns; an `id` sent in a body is ignored. A path or query id that is not an integer is 400; one that names nothing, or something of another account, is 404.',
    "- A character's `shareToken` is random text, its public page `shareUrl` (`/s/<shareToken>`); `POST …/share` replaces it (the old link stops working), `DELETE …/share` turns sharing off (`shared` false).",
    '',
    '### Timestamps',
    '',
    `- Every timestamp the server answers is UTC ISO 8601 with milliseconds: \`${parseTimestamp('2026-11-20T10:00+02:00')}\`.`,
    `- Timestamps it reads (\`completedAt\`, \`lastLoginAt\`) are ISO 8601: a date (\`2026-11-20\` is \`${parseTimestamp('2026-11-20')}\`) or a date and time, \`T\` or a space between them, seconds and fractions optional, with \`Z\` or an offset (\`2026-11-20T10:00+02:00\` is stored as \`${parseTimestamp('2026-11-20T10:00+02:00')}\`); without an offset the time is the server's local time, so send one. An impossible date (30 February) is 400.`,
    '- `lastLoginAt` also takes the word `now` (any case), and `null` to clear it; `completedAt` omitted (or null) is the time of the request. `touchLastLogin: true` (alias `seen`) on a character update sets `lastLoginAt` to now unless a `lastLoginAt` is sent too.',
    '',
    '### Remakes, settings and filters',
    '',
    `- Remake (\`difficulty\`): ${list(REMAKE_TIERS)}. Challenge setting (\`setting\`): ${list(CHALLENGE_SETTINGS)}. Both match in any case and are stored as written here.`,
    `- A completion is never refused for its words: \`setting\` omitted or null is \`${DEFAULT_SETTING}\`; \`Unknown\`, \`any\` or any other word is \`unknown\`; \`difficulty\` omitted or unrecognised is \`Unknown\`; a challenge word in \`difficulty\` with no \`setting\` (\`{"difficulty": "reaper"}\`) moves to \`setting\` and the remake is \`Unknown\`.`,
    `- Reaper skulls: \`reaperSkulls\` (${MIN_REAPER_SKULLS} to ${MAX_REAPER_SKULLS}; aliases below) is the skull count of a reaper run; a setting \`R5\` or \`reaper 5\` (any case, \`difficulty\` too as above) is reaper with 5 skulls, and a count field wins over it. A count beside any other setting is ignored (never refused); a setting like \`R11\` is \`unknown\`. A client that sends only \`reaper\` logs a run without a count, as before. Each run keeps its own count; a completion's \`reaperSkulls\` is the most of its runs' (null when none gave one), whichever run came last.`,
    `- A completion whose remake is \`Unknown\` counts for every remake of its quest name (navigation, the website's tracker). Favor counts the best setting once per quest name.`,
    `- Deleting a completion: no \`setting\` removes the \`${DEFAULT_SETTING}\` row; a setting removes that row; \`allSettings: true\` or \`setting\` ${list(ALL_SETTINGS_WORDS)} removes every setting of the remake. The fields may also come as query parameters (body wins).`,
    `- Route steps are always concrete: remake ${list(STEP_DIFFICULTIES)} (default \`${DEFAULT_STEP_DIFFICULTY}\`), setting ${list(STEP_SETTINGS)} (default \`${DEFAULT_STEP_SETTING}\`); a challenge word in \`difficulty\` moves to \`setting\` as for completions; \`Unknown\`, \`any\` or any other word is 400 naming the step.`,
    `- Play on (\`targetDifficulty\`): ${list(PLAY_ON)} (\`reaper\` uses elite's level math; \`any\` the best case). \`levelBand\`: \`${LEVEL_BAND_FULL_XP}\` = Full XP, \`${LEVEL_BAND_ANY}\` = any level. \`versionFilter\`: an object with keys ${list(Object.keys(VERSION_TIERS))}, each ${list(VERSION_FLAGS)} (\`yes\`: the quest must have that tier; \`no\`: hide that tier's rows; a tier not sent is \`any\`).`,
    `- Navigation \`match\`: \`setting\` (a step is done when its exact setting is logged) or \`remake\` (when any setting of its remake is). \`settingsLogged\` lists settings in the order ${list(SETTING_ORDER)}.`,
    `- Quest search \`difficulty\`: a tier in any case; empty, \`any\` or \`Unknown\` means every tier; anything else is 400. Character levels run from 1 to ${MAX_CHARACTER_LEVEL}: at most ${MAX_MULTICLASS} classes of 1 to ${MAX_CLASS_LEVEL} levels, \`epicLevels\` 0 to ${MAX_EPIC_LEVELS}, the total capped (never refused) at ${MAX_TOTAL_LEVEL}.`,
    '',
    '### Quest names',
    '',
    'Completions, route steps and notes refer to quests by name, never by a catalog id, so a catalog sync never loses a player\'s data. The catalog follows the DDO wiki, whose page titles carry disambiguators the game does not show (the game\'s "Devil Assault" is the wiki\'s "Devil Assault (quest)"; the Epic "Ghost of a Chance" is "Ghost of a Chance (epic)"). A completion (posted, replaced by `PUT progress` or deleted), a route step and a lookup resolve the name they are sent, in this order:',
    '',
    "1. with a remake (`difficulty`), the one catalog name among that tier's rows it can mean: equal to it, or equal once the wiki's disambiguator (one trailing `(…)`) is dropped; or the wiki's name of a quest the game names otherwise in that tier (the epic `Gianthold Tor` is the wiki's `Return to Gianthold Tor`);",
    '2. else a catalog name equal to it without regard to case (accents included);',
    '3. else the one catalog name it is once the disambiguator is dropped (`Devil Assault` → `Devil Assault (quest)`);',
    "4. else the one catalog name it is as the game writes it, forgiving apostrophes (the game's curly `Misery’s Peak`), spacing around `:`, the word \"the\" and a raid's ` (R)` (within the remake's tier when one is given).",
    '',
    'The name is stored (or looked up) in the catalog\'s spelling; send the bare name the game shows. A name the catalog does not know, or a bare name that could mean two pages (`Tangled Depths`: "(quest)" or "(raid)"), is stored as sent (the catalog may lag the game). Deleting by the bare name finds the row stored in the catalog\'s spelling.',
    '',
    '### Where the quest catalog comes from',
    '',
    `The server ships with a copy of the DDO wiki's list "${SNAPSHOT.title}" (${SNAPSHOT.source}, as of ${SNAPSHOT.retrieved.slice(0, 10)}): ${SNAPSHOT.attribution} Licence: ${SNAPSHOT.licence}. It fills an empty catalog at the first start; a daily sync then brings it up to date from the sources the operator configured (the wiki, DDO Audit's public quest list, another Quest Tracker), merging rows by name and tier and never removing one. \`/info\` and \`/api/health\` say where the catalog comes from (\`catalog\`); \`GET /api/catalog\` (no sign-in) serves it to other servers with its licence.`,
    '',
    '### Field aliases',
    '',
    'Older clients send other names for some fields. Each alias is read as its field; when several are sent, the field itself comes first, then its aliases in the order below, and the first that holds a value (not null) wins, so unused aliases sent as `null` clear nothing.',
    '',
    '| field | aliases | in |',
    '|---|---|---|',
    ...aliasRows(doc),
    '',
    '### Writes: upserts, partial updates and merges',
    '',
    '- A completion is keyed by (`name`, `difficulty`, `setting`) after the rules above: posting a new key answers 201, posting a stored one updates it and answers 200 (two clients posting the same key at once make one row). `xpEarned`, `reaperXpEarned` and `durationSeconds` omitted keep the stored value; `null` clears it. `completedAt` is replaced by every post.',
    '- `PUT …/progress` changes only the fields sent; `completions`, when sent, replaces the whole set (each item read as a posted completion). A refused PUT changes nothing, not even its other fields.',
    '- `PATCH` and `PUT /characters/{id}` are the same partial update: omitted fields keep their value. On create a name is required (`givenName`, an alias, or a legacy `name` split at its first space).',
    '- `PUT …/live` replaces the snapshot (`?merge=1`, `?merge=true` or `"merge": true` merges instead); `PUT …/live/partial` and `PUT …/build/partial` merge. A merge is shallow per section: each top-level section sent (`life`, `build`, `tomes`, `meta`…) is merged key by key into the stored one, and a key inside a section replaces the stored value whole (send the whole `build.levels`, `life.specialFeats`…). `pastLives` in a patch replaces every past-life entry of `life.specialFeats` and keeps the other special feats; `reaperPoints` sets `build.reaper.pointsAvailable`.',
    "- Build documents accept partial documents at any depth and keep unknown keys; a known path of the wrong type is 400. A live write (and a planned one while there is no live snapshot) syncs the character's classes, level, race and past lives from the document.",
    '- `PUT /routes/{id}` replaces the whole route (omitted `boosts`/`optionals` become `{}`); only its owner may change or delete it.',
    '',
    ...pastLifeSection(),
    ...trackerShapes(),
    ...limitsSection(),
  ]
}

/** For each error status the operations use, the meaning most of them give it. */
function errorStatuses(doc: OpenApiDocument): [string, string][] {
  const meanings = new Map<string, Map<string, number>>()
  for (const operations of Object.values(doc.paths)) {
    for (const operation of Object.values(operations)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (status.startsWith('2') || !isPlainObject(response) || typeof response.description !== 'string') continue
        const counts = meanings.get(status) ?? new Map<string, number>()
        counts.set(response.description, (counts.get(response.description) ?? 0) + 1)
        meanings.set(status, counts)
      }
    }
  }
  return [...meanings]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, counts]) => [status, [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? ''])
}

const ALIAS = /^Alias of `?([A-Za-z_][\w]*)`?/

/** Every field the document describes as "Alias of x", grouped by field and where it is read. */
function aliasRows(doc: OpenApiDocument): string[] {
  const rows = new Map<string, { field: string; aliases: string[]; where: Set<string> }>()
  const record = (where: string, prefix: string, name: string, schema: unknown) => {
    if (!isPlainObject(schema) || typeof schema.description !== 'string') return
    const match = ALIAS.exec(schema.description)
    if (!match) return
    const field = `${prefix}${match[1]}`
    const key = `${where}\u0000${field}`
    const row = rows.get(key) ?? { field, aliases: [], where: new Set([where]) }
    if (!row.aliases.includes(name)) row.aliases.push(name)
    rows.set(key, row)
  }
  const walk = (where: string, prefix: string, schema: unknown, depth: number) => {
    if (!isPlainObject(schema) || depth > 8) return
    if (isPlainObject(schema.properties)) {
      for (const [name, child] of Object.entries(schema.properties)) {
        record(where, prefix, name, child)
        walk(where, `${prefix}${name}.`, child, depth + 1)
      }
    }
    if (isPlainObject(schema.items)) walk(where, `${prefix.slice(0, -1)}[].`, schema.items, depth + 1)
  }
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const where = `${method.toUpperCase()} ${path}`
      for (const parameter of (operation.parameters ?? []) as Json[]) {
        record(where, '', String(parameter.name), { description: parameter.description, ...(parameter.schema as Json) })
      }
      const content = (operation.requestBody as Json | undefined)?.content
      if (isPlainObject(content) && isPlainObject(content['application/json']))
        walk(where, '', (content['application/json'] as Json).schema, 0)
    }
  }
  // The same field and aliases read by several operations: one row.
  const merged = new Map<string, { field: string; aliases: string[]; where: string[] }>()
  for (const row of rows.values()) {
    const key = `${row.field}\u0000${row.aliases.join(',')}`
    const found = merged.get(key) ?? { field: row.field, aliases: row.aliases, where: [] }
    found.where.push(...row.where)
    merged.set(key, found)
  }
  return [...merged.values()].map(
    (row) => `| \`${row.field}\` | ${list(row.aliases)} | ${row.where.map(code).join(', ')} |`,
  )
}

function pastLifeSection(): string[] {
  const example = pastLifeExamples()
  const classRows = CLASSES.map((c) => `| ${c.name} | \`${c.pastLife}\` |`)
  const raceRows = RACES.map((r) => {
    const feat = racialPastLife(r.name)
    return `| ${r.name} | \`${feat.name}\` | \`${feat.type}\` |`
  })
  return [
    '### Past-life feats',
    '',
    `Past lives are special feats (\`life.specialFeats\`, a patch's \`pastLives\`, reincarnation's \`additionalPastLives\`): \`{name, type, stacks}\`, \`type\` one of ${list(PAST_LIFE_TYPES)} (other types, such as \`Special\`, \`Favor\`, \`UniversalTree\` or \`EpicDestinyTree\`, are kept as sent). Each past life stacks up to ${MAX_PAST_LIFE_STACKS}; \`stacks\` defaults to 1, and repeated entries of one name and type add up. Name them as DDO Builder and the game do, which is what reincarnation grants:`,
    '',
    `- heroic (\`HeroicPastLife\`): \`${example.heroic}\`; an archetype names its class first: \`${example.archetype}\`;`,
    `- racial (\`${example.racial.type}\`): \`${example.racial.name}\` for a Drow Elf; a Wood Elf completes the Elf one (\`${example.woodElf}\`);`,
    `- iconic (\`${example.iconic.type}\`): \`${example.iconic.name}\` for a Dhampir Dark Bargainer;`,
    '- epic (`EpicPastLife`): `Past Life: <Sphere> Sphere: <feat>`, e.g. `Past Life: Arcane Sphere: Energy Criticals` (the server never grants these; it stores them as sent);',
    `- a class or race the table below does not know: \`${example.unknownName}\`.`,
    '',
    `\`POST …/lives/reincarnate\` archives the current life, carries its special feats forward except \`Favor\` ones, and grants (each capped at ${MAX_PAST_LIFE_STACKS} stacks) the heroic past life of the finished life's class with the most levels (a tie goes to the first) when \`grantHeroic\` is true, the racial or iconic past life of its race when \`grantRacial\` is true (both default false), and \`additionalPastLives\`. Class and race names match in any case and through the spellings DDO Builder and the wiki use.`,
    '',
    '| class | heroic past life |',
    '|---|---|',
    ...classRows,
    '',
    '| race | past life | type |',
    '|---|---|---|',
    ...raceRows,
    '',
  ]
}

function trackerShapes(): string[] {
  const bonuses = XP_BONUSES.map((bonus) => {
    const field = bonus.group === 'boost' ? 'xpBoosts' : 'optionalPursuit'
    const percent =
      typeof bonus.percent === 'number'
        ? String(bonus.percent)
        : Object.entries(bonus.percent)
            .filter(([setting]) => setting !== 'unknown')
            .map(([setting, value]) => `${setting} ${value}`)
            .join(', ')
    return `| \`${bonus.key}\` | \`${field}\` | ${bonus.stacking} | ${percent}${'custom' in bonus ? ' (or the percent stored)' : ''} |`
  })
  return [
    '### Tracker state in progress',
    '',
    'The free-form fields of `PUT …/progress` are stored whole; the website reads and writes them in these shapes, and a client may too:',
    '',
    '- `excludedPatrons`: an array of patron names as the catalog spells them (`""` is the quests with no patron), hidden in the tracker.',
    '- `packState`: `{"<pack name>": false}` for each hidden adventure pack; missing or `true` is shown.',
    '- `xpBoosts` (always-on boosts) and `optionalPursuit` (per-run optionals): `{"<key>": true}` switches a bonus on at its percent below, a positive number at that percent instead; unknown keys are kept and ignored. The website estimates XP from them when a completion has no `xpEarned`.',
    "- `questNotes`: any JSON object; the server stores it whole and the website does not read it, so its shape is the client's.",
    '',
    '| key | in | stacking | percent when `true` |',
    '|---|---|---|---|',
    ...bonuses,
    '',
  ]
}

function limitsSection(): string[] {
  const rows: [string, string, number][] = [
    ['request body', mib(MAX_BODY_BYTES), 413],
    [
      `request body of \`POST ${PLUGIN_PREFIX}/auth/login\` (the one read without a token)`,
      kib(MAX_SIGN_IN_BODY_BYTES),
      413,
    ],
    ['time for a request body to arrive', `${BODY_TIME_LIMIT_MS / 1000} s`, 408],
    ['characters per account', n(MAX_CHARACTERS_PER_ACCOUNT), 409],
    [
      'completions per character (distinct name, difficulty, setting); updating a stored one always works',
      n(MAX_COMPLETIONS_PER_CHARACTER),
      409,
    ],
    ['`completions` in one `PUT progress`', `${n(MAX_COMPLETIONS_PER_CHARACTER)} items`, 400],
    ['`xpEarned`, `reaperXpEarned` (and aliases)', `integers from 0 to ${n(MAX_XP)}`, 400],
    ['`durationSeconds`', `integer from 0 to ${n(MAX_DURATION_SECONDS)}`, 400],
    ['`reaperSkulls` (and aliases)', `integer from ${MIN_REAPER_SKULLS} to ${MAX_REAPER_SKULLS}`, 400],
    [
      '`xpBoosts`, `optionalPursuit`, `packState`, `questNotes`, `excludedPatrons` (PUT progress)',
      `${kib(MAX_TRACKER_FIELD_BYTES)} each, as JSON`,
      413,
    ],
    ['`excludedPatrons`', `${n(MAX_EXCLUDED_PATRONS)} entries`, 400],
    [
      'a build document (live or planned), as stored after the merge or replace',
      `${kib(builds.MAX_BUILD_DOCUMENT_BYTES)} as JSON`,
      413,
    ],
    ['`build.levels`', n(builds.MAX_BUILD_LEVELS), 400],
    ['`build.classes`', n(builds.MAX_CLASS_SLOTS), 400],
    ['`feats`, `skills` of a level', `${n(builds.MAX_FEATS_PER_LEVEL)}, ${n(builds.MAX_SKILLS_PER_LEVEL)}`, 400],
    ['trees `selected`', n(builds.MAX_SELECTED_TREES), 400],
    ['trees in `spend`', n(builds.MAX_SPENT_TREES), 400],
    ['`trained` per tree', n(builds.MAX_TRAINED_PER_TREE), 400],
    ['`build.reaper.spend`', n(builds.MAX_REAPER_SPEND), 400],
    ['`build.trainedSpells`', n(builds.MAX_TRAINED_SPELLS), 400],
    ['`build.stances`', n(builds.MAX_STANCES), 400],
    ["`meta.incomplete` (and the wrapper's `incomplete`)", n(builds.MAX_INCOMPLETE_DOMAINS), 400],
    ['`build.levelAbilityBumps`, `tomes.skills`', `${n(builds.MAX_MAP_ENTRIES)} entries`, 400],
    ['`life.specialFeats`, `pastLives`, `additionalPastLives`', `${n(builds.MAX_SPECIAL_FEATS)} items`, 400],
    [
      "names: a life's `name`, `race`, `alignment`; a feat's `name`, `type`; a class name (build documents and reincarnation)",
      `${n(builds.MAX_NAME_CHARS)} characters`,
      400,
    ],
    ['special feats a new life would carry after reincarnation', n(builds.MAX_SPECIAL_FEATS), 409],
    [
      'a life (name, race, alignment, classes, special feats), on reincarnation or a build sync',
      `${kib(builds.MAX_LIFE_BYTES)} as JSON`,
      413,
    ],
    ['lives per character', n(builds.MAX_LIVES_PER_CHARACTER), 409],
    [
      '`GET …/lives` page',
      `\`limit\` 1–${n(builds.MAX_LIVES_PAGE)}, default ${n(builds.MAX_LIVES_PAGE)}; \`offset\` 0 or more`,
      400,
    ],
    ['routes per account (created or imported)', n(routes.MAX_ROUTES_PER_ACCOUNT), 409],
    ['route steps', n(routes.MAX_ROUTE_STEPS), 400],
    ['route `boosts`, `optionals`', `${kib(routes.MAX_ROUTE_FIELD_BYTES)} each, as JSON`, 413],
    [
      '`GET /routes` page',
      `\`limit\` 1–${n(routes.MAX_ROUTE_PAGE)}, default ${n(routes.DEFAULT_ROUTE_PAGE)}; \`offset\` 0 or more`,
      400,
    ],
    ['`GET /quests/search` `limit`', `1–${MAX_SEARCH_LIMIT}, default ${DEFAULT_SEARCH_LIMIT}`, 400],
    ['`GET /quests/search` `level`', `1–${MAX_CHARACTER_LEVEL}`, 400],
  ]
  return [
    '### Limits',
    '',
    "Everything a client can grow is bounded. The schemas below carry the limits of single fields (lengths, ranges, item counts); these are the rest, the same on the website's cookie API:",
    '',
    '| what | limit | beyond it |',
    '|---|---|---|',
    ...rows.map(([what, limit, status]) => `| ${what} | ${limit} | ${status} |`),
    '',
  ]
}
