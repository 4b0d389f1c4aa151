// The whole database, as Drizzle tables. Keys are camelCase here and snake_case in SQLite
// (`casing: 'snake_case'` in both drizzle() and drizzle.config.ts).
// Timestamps are ISO 8601 text in UTC: they sort correctly and go to clients unchanged.
// Quests are referred to by name everywhere (never by catalog row id), so a catalog sync
// can never orphan a player's data.
import { sql } from 'drizzle-orm'
import {
  type AnySQLiteColumn,
  index,
  integer,
  primaryKey,
  real,
  sqliteTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/sqlite-core'
import type { BuildDocument } from '../modules/builds/model'
import type { PlayOn } from '../rules/character/levels'
import type { ReincarnationKind } from '../rules/character/reincarnation'
import type { ClassLevels, SpecialFeat } from '../rules/character/shapes'
import type { GroupSize } from '../rules/quests/catalogFacts'
import type { Difficulty, Setting } from '../rules/quests/completion'
import type { GridView } from '../rules/quests/grid'
import type { QuestTier } from '../rules/quests/questTiers'
import type { RemovedTriple } from '../rules/quests/restore'
import type { VersionFilter } from '../rules/quests/tracker'
import type { StepDifficulty, StepSetting } from '../rules/routes/routeStep'

export const users = sqliteTable(
  'users',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    /** Stored lower-cased: e-mail addresses match case-insensitively. */
    email: text(),
    username: text(),
    passwordHash: text().notNull(),
    /**
     * Whether this account's runs count in the server's quest times (the median duration and XP
     * per minute every player sees beside the catalog). Only those aggregates leave an account.
     */
    shareQuestTimes: integer({ mode: 'boolean' }).notNull().default(true),
    createdAt: text().notNull(),
    /**
     * The account whose invite (a group's link) made this one at sign-up; null for the operator's
     * invites and `user add`, and once that account is removed. What the daily limit on the
     * accounts one account's invites make counts (invites/limits.ts).
     */
    invitedBy: integer().references((): AnySQLiteColumn => users.id, { onDelete: 'set null' }),
    /**
     * How the player looks at the quests × characters grids (the columns' order, the hidden ones,
     * the filters): the fields they changed, over the defaults (rules/quests/grid.ts).
     */
    gridView: text({ mode: 'json' }).$type<Partial<GridView>>().notNull().default(sql`'{}'`),
  },
  (table) => [
    uniqueIndex('users_email_unique').on(table.email),
    // Usernames are unique without regard to case, so "Alice" and "alice" are one account.
    uniqueIndex('users_username_unique').on(sql`lower(${table.username})`),
    index('users_invited_by').on(table.invitedBy, table.createdAt),
  ],
)

export const apiTokens = sqliteTable(
  'api_tokens',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    label: text().notNull(),
    /** SHA-256 of the plain token, hex. The plain token is shown once, at login. */
    tokenHash: text().notNull(),
    createdAt: text().notNull(),
    /** Moved forward at most once an hour (not a write per request); null until first used. */
    lastUsedAt: text(),
    revokedAt: text(),
  },
  (table) => [uniqueIndex('api_tokens_hash_unique').on(table.tokenHash), index('api_tokens_user').on(table.userId)],
)

/** Website sessions: the cookie holds the plain id, the table only its SHA-256. */
export const sessions = sqliteTable(
  'sessions',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text().notNull(),
    createdAt: text().notNull(),
    /** Slides forward with use (at most once a minute), so an idle session ends by itself. */
    expiresAt: text().notNull(),
    revokedAt: text(),
  },
  (table) => [uniqueIndex('sessions_hash_unique').on(table.tokenHash), index('sessions_user').on(table.userId)],
)

export const characters = sqliteTable(
  'characters',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    givenName: text().notNull(),
    surname: text().notNull().default(''),
    race: text().notNull().default(''),
    gender: text().notNull().default(''),
    alignment: text().notNull().default(''),
    server: text().notNull().default(''),
    guild: text().notNull().default(''),
    classes: text({ mode: 'json' }).$type<ClassLevels[]>().notNull().default(sql`'[]'`),
    epicLevels: integer().notNull().default(0),
    lastLoginAt: text(),
    // Tracker state shown in progress.
    targetDifficulty: text().$type<PlayOn>().notNull().default('any'),
    levelBand: integer().notNull().default(0),
    /**
     * The player's level range at levelBand 0, each end relative to the tracker level (so it
     * follows the character as it levels): null = the default end (rules/quests/levelBand.ts).
     */
    levelsBelow: integer(),
    levelsAbove: integer(),
    /** Set by PUT progress `characterLevel`; null means "derive from classes". */
    characterLevelOverride: integer(),
    excludedPatrons: text({ mode: 'json' }).$type<unknown[]>().notNull().default(sql`'[]'`),
    versionFilter: text({ mode: 'json' })
      .$type<VersionFilter>()
      .notNull()
      .default(sql`'{"heroic":"any","epic":"any","legendary":"any"}'`),
    xpBoosts: text({ mode: 'json' }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    optionalPursuit: text({ mode: 'json' }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    packState: text({ mode: 'json' }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    questNotes: text({ mode: 'json' }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    shareToken: text().notNull(),
    /** Off: the share link answers 404 until the owner shares again. */
    shared: integer({ mode: 'boolean' }).notNull().default(true),
    /**
     * The runs kept of the character's completions (rows of `runs`), counted by triggers on
     * `runs` and `completions` (migration 0010) whatever writes them, so the bound on them
     * (completions/limits.ts MAX_RUNS_PER_CHARACTER) costs no count.
     */
    keptRuns: integer().notNull().default(0),
    createdAt: text().notNull(),
    updatedAt: text().notNull(),
  },
  (table) => [
    index('characters_user').on(table.userId),
    uniqueIndex('characters_share_token_unique').on(table.shareToken),
  ],
)

export const completions = sqliteTable(
  'completions',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    characterId: integer()
      .notNull()
      .references(() => characters.id, { onDelete: 'cascade' }),
    /**
     * The quest life it was logged in: the lifeIndex of the life that began it (lives.questLife;
     * 1 before any reincarnation). A true reincarnation starts quests, favor and first-time
     * bonuses over, so the same triple after it is a completion of its own; an epic or lesser
     * reincarnation keeps the quest life, and its completions with it.
     */
    lifeIndex: integer().notNull().default(1),
    name: text().notNull(),
    difficulty: text().$type<Difficulty>().notNull(),
    setting: text().$type<Setting>().notNull(),
    /** The latest run's: its time, and its duration and XP as the last posts gave them. */
    completedAt: text().notNull(),
    durationSeconds: integer(),
    xpEarned: integer(),
    reaperXpEarned: integer(),
    /**
     * The most skulls any run of it was logged with (reaper only; null: no count was given). Not
     * the latest run's like the figures above: the tracker shows the best.
     */
    reaperSkulls: integer(),
    /**
     * How many runs of this triple were logged (each run is a row of `runs`; completions stored
     * before runs were kept count theirs here only). The upsert sets 1 on insert and adds 1 on
     * conflict, so its RETURNING row says whether it created (201) or updated (200) without a
     * separate read.
     */
    runs: integer().notNull().default(1),
    updatedAt: text().notNull(),
  },
  (table) => [
    // The upsert key, within a life. Enforced here so two clients posting the same triple at
    // once make one row.
    uniqueIndex('completions_life_triple_unique').on(
      table.characterId,
      table.lifeIndex,
      table.name,
      table.difficulty,
      table.setting,
    ),
    // Progress lists a life's completions most recent first: read in this order (the rowid
    // breaks ties), not sorted on every request.
    index('completions_life_recent').on(table.characterId, table.lifeIndex, table.completedAt),
    // The server's quest times are recomputed per remake and setting (questTimes).
    index('completions_quest').on(table.name, table.difficulty, table.setting),
  ],
)

/**
 * Every run of a completion: what the game client posted each time the quest was done. A run
 * re-sent with the same `completedAt` is the same run (the plugin re-sends what it could not
 * deliver). Deleting the completion deletes its runs.
 */
export const runs = sqliteTable(
  'runs',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    completionId: integer()
      .notNull()
      .references(() => completions.id, { onDelete: 'cascade' }),
    completedAt: text().notNull(),
    durationSeconds: integer(),
    xpEarned: integer(),
    reaperXpEarned: integer(),
    /** The run's skull count (reaper only, 1 to 10; null: not given). */
    reaperSkulls: integer(),
  },
  (table) => [uniqueIndex('runs_completion_time_unique').on(table.completionId, table.completedAt)],
)

/**
 * The server's quest times per remake and setting, over the runs of every account that shares
 * them: kept current by recomputing a key when one of its runs changes (questTimesDirty), never
 * by reading every run on a request. Served with the catalog only from the runs of enough
 * accounts (rules/quests/runs.ts), and only once the accounts were counted: a row computed before
 * they were (0 accounts) is not served until it is computed again.
 */
export const questTimes = sqliteTable(
  'quest_times',
  {
    name: text().notNull(),
    difficulty: text().$type<Difficulty>().notNull(),
    setting: text().$type<Setting>().notNull(),
    /** Runs with a duration, and the characters and accounts they are of. */
    timedRuns: integer().notNull(),
    timedCharacters: integer().notNull(),
    timedAccounts: integer().notNull().default(0),
    medianDurationSeconds: real(),
    /** Runs with a duration and XP (XP per minute), and their characters and accounts. */
    xpRuns: integer().notNull(),
    xpCharacters: integer().notNull(),
    xpAccounts: integer().notNull().default(0),
    medianXpPerMinute: real(),
    updatedAt: text().notNull(),
  },
  (table) => [primaryKey({ columns: [table.name, table.difficulty, table.setting] })],
)

/** Remakes and settings whose runs changed since their quest times were computed. */
export const questTimesDirty = sqliteTable(
  'quest_times_dirty',
  {
    name: text().notNull(),
    difficulty: text().$type<Difficulty>().notNull(),
    setting: text().$type<Setting>().notNull(),
  },
  (table) => [primaryKey({ columns: [table.name, table.difficulty, table.setting] })],
)

/** The quest catalog: one row per remake, replaced whole by each sync. */
export const quests = sqliteTable(
  'quests',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    name: text().notNull(),
    difficulty: text().$type<QuestTier>().notNull(),
    level: integer().notNull(),
    soloXp: integer('solo_xp'),
    normalXp: integer('normal_xp'),
    hardXp: integer('hard_xp'),
    eliteXp: integer('elite_xp'),
    duration: text().notNull().default(''),
    pack: text().notNull().default(''),
    patron: text().notNull().default(''),
    favor: integer(),
    // Facts only some sources carry (DDO Audit's list, another Quest Tracker); null where unknown.
    /** The game's own id of the quest. */
    questId: integer(),
    /** `Solo`, `Party` or `Raid`: a raid is a `Raid`. */
    groupSize: text().$type<GroupSize>(),
    freeToVip: integer({ mode: 'boolean' }),
  },
  (table) => [
    uniqueIndex('quests_name_difficulty_unique').on(table.name, table.difficulty),
    // Every posted completion takes the catalog's spelling of its name, matched without regard
    // to case (completions/service.ts): a search of this index instead of a scan of the catalog.
    index('quests_name_lower').on(sql`lower(${table.name})`, table.name),
  ],
)

/** A member's say in a group beside its owner's (groups.ownerId). */
export type MemberRole = 'member' | 'officer'

/** Where the catalog's rows came from: the copy inside the program, or a sync since. */
export type CatalogOrigin = 'snapshot' | 'sync'

/** How one source's last try went, as every account and the health check may read it. */
export interface SourceAttempt {
  /** The source's public name: "the DDO wiki", "DDO Audit", a URL's host or a file's name. */
  source: string
  at: string
  /** `challenge`: refused with a bot challenge; `failed`: unreadable, unparseable or empty. */
  outcome: 'ok' | 'challenge' | 'failed'
  /** One sentence without the source's full address (that is in the server's log). */
  detail: string
}

/**
 * A single row (id 1): where the catalog came from (the snapshot that ships with the program, or
 * the last successful sync) and how the last try of each source went.
 */
export const catalogState = sqliteTable('catalog_state', {
  id: integer().primaryKey(),
  /** The URL or file of the last successful sync; the snapshot's own source for `origin` snapshot. */
  source: text().notNull(),
  syncedAt: text().notNull(),
  rows: integer().notNull(),
  /** `snapshot`: filled from the copy inside the program and never synced since; `sync`: synced. */
  origin: text().$type<CatalogOrigin>().notNull().default('sync'),
  /** The last try of each configured source, newest sync's order. */
  attempts: text({ mode: 'json' }).$type<SourceAttempt[]>().notNull().default(sql`'[]'`),
})

/** Optional-pursuit thresholds per quest name, loaded by `quest-tracker scorecards import`. */
export const scorecards = sqliteTable('scorecards', {
  questName: text().primaryKey(),
  data: text({ mode: 'json' }).$type<Record<string, unknown>>().notNull(),
})

export const routes = sqliteTable(
  'routes',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    ownerId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    boosts: text({ mode: 'json' }).$type<unknown>().notNull().default(sql`'{}'`),
    optionals: text({ mode: 'json' }).$type<unknown>().notNull().default(sql`'{}'`),
    createdAt: text().notNull(),
    updatedAt: text().notNull(),
  },
  (table) => [index('routes_owner').on(table.ownerId)],
)

export const routeSteps = sqliteTable(
  'route_steps',
  {
    routeId: integer()
      .notNull()
      .references(() => routes.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    name: text().notNull(),
    difficulty: text().$type<StepDifficulty>().notNull(),
    setting: text().$type<StepSetting>().notNull(),
  },
  (table) => [primaryKey({ columns: [table.routeId, table.position] })],
)

/** Live snapshot and planned build: one document each per character, same schema. */
export const builds = sqliteTable(
  'builds',
  {
    characterId: integer()
      .notNull()
      .references(() => characters.id, { onDelete: 'cascade' }),
    role: text().$type<'live' | 'planned'>().notNull(),
    document: text({ mode: 'json' }).$type<BuildDocument>().notNull(),
    meta: text({ mode: 'json' }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    breakdownCache: text({ mode: 'json' }).$type<Record<string, unknown> | null>(),
    validationErrors: text({ mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    reaperPointsAvailable: real(),
    updatedAt: text().notNull(),
  },
  (table) => [primaryKey({ columns: [table.characterId, table.role] })],
)

export const lives = sqliteTable(
  'lives',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    characterId: integer()
      .notNull()
      .references(() => characters.id, { onDelete: 'cascade' }),
    lifeIndex: integer().notNull(),
    isCurrent: integer({ mode: 'boolean' }).notNull(),
    name: text().notNull().default(''),
    race: text().notNull().default(''),
    alignment: text().notNull().default(''),
    classes: text({ mode: 'json' }).$type<ClassLevels[]>().notNull().default(sql`'[]'`),
    specialFeats: text({ mode: 'json' }).$type<SpecialFeat[]>().notNull().default(sql`'[]'`),
    /**
     * How this life began: the kind of the reincarnation out of the life before (rules/character/
     * reincarnation.ts); null for life 1, and for a reincarnation that said no kind and granted
     * nothing (taken as a true one).
     */
    kind: text().$type<ReincarnationKind>(),
    /**
     * The quest life this life is in: the lifeIndex of the life that began it (its own after a
     * true reincarnation and for life 1; the life before's after an epic or lesser one). Its
     * completions are stored under it (completions.lifeIndex).
     */
    questLife: integer().notNull(),
    createdAt: text().notNull(),
    archivedAt: text(),
  },
  (table) => [uniqueIndex('lives_character_index_unique').on(table.characterId, table.lifeIndex)],
)

/**
 * A group of accounts (a guild, a household) that sees the characters its members share with it.
 * The owner is a member; handing the group on changes `ownerId`. A group whose last member
 * leaves is deleted (groups/service.ts), so there is never a group without an owner.
 */
export const groups = sqliteTable(
  'groups',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    name: text().notNull(),
    /** No cascade: removing an account hands its groups on first (account/service.ts). */
    ownerId: integer()
      .notNull()
      .references(() => users.id),
    createdAt: text().notNull(),
  },
  (table) => [index('groups_owner').on(table.ownerId)],
)

export const groupMembers = sqliteTable(
  'group_members',
  {
    groupId: integer()
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    joinedAt: text().notNull(),
    /**
     * `officer`: named by the owner; makes and ends the group's links and removes members. The
     * owner is the group's `ownerId`, whatever this says.
     */
    role: text().$type<MemberRole>().notNull().default('member'),
  },
  (table) => [primaryKey({ columns: [table.groupId, table.userId] }), index('group_members_user').on(table.userId)],
)

/** Which characters a group sees: none until their owner shares them, each taken back at any time. */
export const groupShares = sqliteTable(
  'group_shares',
  {
    groupId: integer()
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    characterId: integer()
      .notNull()
      .references(() => characters.id, { onDelete: 'cascade' }),
    sharedAt: text().notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.groupId, table.characterId] }),
    index('group_shares_character').on(table.characterId),
  ],
)

/**
 * Invite codes: to a group (from its owner or an officer), or to make an account on this server
 * (from the operator, `groupId` null). The code is shown once; only its SHA-256 is kept. A code
 * admits `maxUses` accounts (one, or a guild's link of many), counted in `uses`; it is used up
 * (`usedAt`) at the last, and ends at `expiresAt`.
 */
export const invites = sqliteTable(
  'invites',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    codeHash: text().notNull(),
    groupId: integer().references(() => groups.id, { onDelete: 'cascade' }),
    createdBy: integer().references(() => users.id, { onDelete: 'set null' }),
    createdAt: text().notNull(),
    expiresAt: text().notNull(),
    /** How many accounts the code may admit: 1 for a one-time link, more for a guild's link. */
    maxUses: integer().notNull().default(1),
    uses: integer().notNull().default(0),
    /** When the code was used up (its last use); null while it may still be used. */
    usedAt: text(),
    /** Who used it last. */
    usedBy: integer().references(() => users.id, { onDelete: 'set null' }),
  },
  (table) => [uniqueIndex('invites_code_hash_unique').on(table.codeHash), index('invites_group').on(table.groupId)],
)

/**
 * What one DELETE of completions removed, whole (each completion with its count and its runs),
 * kept under its id (the DELETE answers it as `undoId`) until `expiresAt`: POST
 * completions/restore puts back only what is kept here, never what a client sends (issue 39).
 * Pruned by housekeeping, and beyond the newest few of a character at each DELETE
 * (completions/limits.ts).
 */
export const keptDeletions = sqliteTable(
  'kept_deletions',
  {
    id: integer().primaryKey({ autoIncrement: true }),
    characterId: integer()
      .notNull()
      .references(() => characters.id, { onDelete: 'cascade' }),
    removedAt: text().notNull(),
    expiresAt: text().notNull(),
    completions: text({ mode: 'json' }).$type<RemovedTriple[]>().notNull(),
  },
  (table) => [
    index('kept_deletions_character').on(table.characterId, table.expiresAt),
    index('kept_deletions_expiry').on(table.expiresAt),
  ],
)

/** A character's quest, difficulty and setting: the key of its own quest times (fresh columns per table). */
const characterQuestKey = () => ({
  characterId: integer()
    .notNull()
    .references(() => characters.id, { onDelete: 'cascade' }),
  name: text().notNull(),
  difficulty: text().$type<Difficulty>().notNull(),
  setting: text().$type<Setting>().notNull(),
})

/**
 * Each character's own quest times per quest, difficulty and setting, over its runs of every life:
 * the timed runs and their median, the runs with XP too and their median XP per minute. What
 * GET …/next and …/quest-times read, instead of every run of the character (issue 39): the keys
 * whose runs changed (characterQuestTimesDirty, marked by triggers on runs and completions
 * whatever writes them) are recomputed at the next read, from their runs alone. Only keys with a
 * timed run have a row.
 */
export const characterQuestTimes = sqliteTable(
  'character_quest_times',
  {
    ...characterQuestKey(),
    timedRuns: integer().notNull(),
    medianDurationSeconds: real().notNull(),
    /** Runs with a duration and XP; null median when none. */
    xpRuns: integer().notNull(),
    medianXpPerMinute: real(),
  },
  (table) => [primaryKey({ columns: [table.characterId, table.name, table.difficulty, table.setting] })],
)

/** A character's quests, difficulties and settings whose runs changed since their times were computed. */
export const characterQuestTimesDirty = sqliteTable(
  'character_quest_times_dirty',
  {
    ...characterQuestKey(),
  },
  (table) => [primaryKey({ columns: [table.characterId, table.name, table.difficulty, table.setting] })],
)
