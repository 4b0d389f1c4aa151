// Shared routes (user content: CONTRACT.md "Routes are user content") and navigation along them.
// Every route is visible to every account; only its owner may change or delete it, and for
// anyone else it answers 404 exactly like a missing one (ownership in the query).
import { and, asc, count, eq, sql } from 'drizzle-orm'
import { type Clock, isoNow } from '../../clock'
import type { DB } from '../../db/client'
import { aliased, prepareNative } from '../../db/native'
import { preparedOnce } from '../../db/prepared'
import { completions, routeSteps, routes, users } from '../../db/schema'
import type { Writer } from '../../deps'
import { BadRequest, Conflict, NotFound } from '../../http/errors'
import { assertJsonSize } from '../../http/size'
import { isPlainObject, type Json } from '../../json'
import { type MatchMode, type NavigationState, navigate } from '../../rules/routes/navigation'
import {
  normalizeStepWords,
  STEP_DIFFICULTIES,
  STEP_SETTINGS,
  type StepDifficulty,
  type StepSetting,
} from '../../rules/routes/routeStep'
import { userDisplayName } from '../auth/service'
import { questNames } from '../catalog/service'
import { type CharacterHead, ownedCharacterHead } from '../characters/access'
import { characterName } from '../characters/service'
import { currentQuestLife } from '../completions/service'
import { DEFAULT_ROUTE_PAGE, MAX_ROUTE_FIELD_BYTES, MAX_ROUTES_PER_ACCOUNT } from './limits'
import type { RouteInputBody } from './model'

type Tx = Parameters<Parameters<DB['transaction']>[0]>[0]

export interface StepValues {
  name: string
  difficulty: StepDifficulty
  setting: StepSetting
}

export interface RouteStepOut extends StepValues {
  position: number
}

export interface RouteListItem {
  id: number
  name: string
  ownerDisplayName: string
  owned: boolean
  questCount: number
  boosts: Json
  optionals: Json
  createdAt: string
  updatedAt: string
}

export interface RouteDetail extends RouteListItem {
  quests: RouteStepOut[]
}

export interface NormalizedRoute {
  name: string
  boosts: Json
  optionals: Json
  quests: StepValues[]
}

const asObject = (value: unknown): Json => (isPlainObject(value) ? value : {})

/** boosts/optionals: omitted or null -> {}; anything but a JSON object is refused. */
function freeObject(field: string, value: unknown): Json {
  if (value === undefined || value === null) return {}
  if (!isPlainObject(value)) throw new BadRequest(`Field "${field}" must be a JSON object.`)
  return value
}

/**
 * Checks and normalises a route body (POST, PUT, or an imported file): names trimmed and not
 * blank, at least one step, each step's words made concrete (see rules/routes/routeStep.ts), quest names
 * in the catalog's spelling when the catalog knows them. Throws BadRequest naming the step.
 */
export function normalizeRouteInput(db: DB, input: RouteInputBody): NormalizedRoute {
  const name = input.name.trim()
  if (name === '') throw new BadRequest('The route name must not be blank.')
  if (input.quests.length === 0) throw new BadRequest('A route needs at least one quest in "quests".')
  const spelling = questNames(db)
  const steps = input.quests.map((step, i): StepValues => {
    const questName = step.name.trim()
    if (questName === '') throw new BadRequest(`Step ${i + 1} needs a quest name ("quests.${i}.name" is blank).`)
    const setting = step.setting ?? step.challengeSetting ?? step.challenge_setting
    const words = normalizeStepWords(step.difficulty, setting)
    if (!words.ok) {
      const allowed = words.field === 'difficulty' ? STEP_DIFFICULTIES.join(', ') : STEP_SETTINGS.join(', ')
      throw new BadRequest(
        `Step ${i + 1} ("${questName}"): ${words.field} "${words.value}" is not allowed on a route; use one of ${allowed}.`,
      )
    }
    return {
      name: spelling(questName, words.difficulty),
      difficulty: words.difficulty,
      setting: words.setting,
    }
  })
  const boosts = freeObject('boosts', input.boosts)
  const optionals = freeObject('optionals', input.optionals)
  // Every account downloads them in the list: their size is capped, not just the request's.
  assertJsonSize('Field "boosts"', boosts, MAX_ROUTE_FIELD_BYTES)
  assertJsonSize('Field "optionals"', optionals, MAX_ROUTE_FIELD_BYTES)
  return { name, boosts, optionals, quests: steps }
}

// Multi-row inserts stay well under SQLite's bound-parameter limit (5 columns per step).
const STEP_CHUNK = 500

function insertSteps(tx: Tx, routeId: number, steps: StepValues[]): void {
  for (let start = 0; start < steps.length; start += STEP_CHUNK) {
    tx.insert(routeSteps)
      .values(steps.slice(start, start + STEP_CHUNK).map((step, i) => ({ routeId, position: start + i + 1, ...step })))
      .run()
  }
}

/**
 * Stores an already normalised route for `ownerId`; returns its id. 409 when the owner already
 * has MAX_ROUTES_PER_ACCOUNT: counted in the same immediate transaction as the insert, so
 * parallel creates (or imports) at the cap queue for the write lock and cannot overshoot it.
 */
export function storeRoute(db: DB, clock: Clock, ownerId: number, route: NormalizedRoute): number {
  const now = isoNow(clock)
  return db.transaction(
    (tx) => {
      const owned = tx.select({ n: count() }).from(routes).where(eq(routes.ownerId, ownerId)).get()?.n ?? 0
      if (owned >= MAX_ROUTES_PER_ACCOUNT) {
        throw new Conflict(
          `The account already owns ${MAX_ROUTES_PER_ACCOUNT} routes, the most one account may have; delete one first.`,
        )
      }
      const row = tx
        .insert(routes)
        .values({
          ownerId,
          name: route.name,
          boosts: route.boosts,
          optionals: route.optionals,
          createdAt: now,
          updatedAt: now,
        })
        .returning({ id: routes.id })
        .get()
      insertSteps(tx, row.id, route.quests)
      return row.id
    },
    { behavior: 'immediate' },
  )
}

export function createRoute(db: DB, clock: Clock, ownerId: number, input: RouteInputBody): RouteDetail {
  const id = storeRoute(db, clock, ownerId, normalizeRouteInput(db, input))
  return getRoute(db, ownerId, id)
}

/** Replaces the whole route (name, steps, boosts, optionals) when `userId` owns it; else 404. */
export function updateRoute(
  { db, clock, changes }: Writer,
  userId: number,
  id: number,
  input: RouteInputBody,
): RouteDetail {
  const route = normalizeRouteInput(db, input)
  db.transaction(
    (tx) => {
      const updated = tx
        .update(routes)
        .set({ name: route.name, boosts: route.boosts, optionals: route.optionals, updatedAt: isoNow(clock) })
        .where(and(eq(routes.id, id), eq(routes.ownerId, userId)))
        .returning({ id: routes.id })
        .get()
      if (!updated) throw notYours(id)
      tx.delete(routeSteps).where(eq(routeSteps.routeId, id)).run()
      insertSteps(tx, id, route.quests)
    },
    { behavior: 'immediate' },
  )
  changes.routeChanged(id)
  return getRoute(db, userId, id)
}

export function deleteRoute({ db, changes }: Writer, userId: number, id: number): void {
  // Steps go with the route (foreign-key cascade).
  const deleted = db
    .delete(routes)
    .where(and(eq(routes.id, id), eq(routes.ownerId, userId)))
    .returning({ id: routes.id })
    .get()
  if (!deleted) throw notYours(id)
  changes.routeChanged(id)
}

const notYours = (id: number) => new NotFound(`No route ${id} of yours (only its owner may change or delete a route).`)

const listColumns = {
  id: routes.id,
  name: routes.name,
  ownerId: routes.ownerId,
  ownerUsername: users.username,
  boosts: routes.boosts,
  optionals: routes.optionals,
  createdAt: routes.createdAt,
  updatedAt: routes.updatedAt,
  questCount: sql<number>`(select ${count()} from ${routeSteps} where ${routeSteps.routeId} = ${routes.id})`,
}

const selectRoutes = (db: Pick<DB, 'select'>) =>
  db.select(listColumns).from(routes).innerJoin(users, eq(users.id, routes.ownerId))

type ListRow = ReturnType<ReturnType<typeof selectRoutes>['all']>[number]

const toListItem = (row: ListRow, viewerId: number): RouteListItem => ({
  id: row.id,
  name: row.name,
  // The owner's username or "Player": the e-mail is never selected, so it cannot leak.
  ownerDisplayName: userDisplayName({ username: row.ownerUsername }),
  owned: row.ownerId === viewerId,
  questCount: row.questCount,
  boosts: asObject(row.boosts),
  optionals: asObject(row.optionals),
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
})

export interface RoutePage {
  routes: RouteListItem[]
  total: number
  limit: number
  offset: number
}

/**
 * One page of every route on the server, by name (case-insensitive), then oldest first, with
 * the count of them all. Read in one transaction, so `total` and the page agree.
 */
export function listRoutes(db: DB, viewerId: number, query: { limit?: number; offset?: number } = {}): RoutePage {
  // The ranges were checked with the query (RouteListQuery).
  const limit = query.limit ?? DEFAULT_ROUTE_PAGE
  const offset = query.offset ?? 0
  return db.transaction((tx) => {
    const total = tx.select({ n: count() }).from(routes).get()?.n ?? 0
    const rows = selectRoutes(tx).orderBy(sql`lower(${routes.name})`, asc(routes.id)).limit(limit).offset(offset).all()
    return { routes: rows.map((row) => toListItem(row, viewerId)), total, limit, offset }
  })
}

export function findRoute(db: DB, viewerId: number, id: number): RouteDetail | undefined {
  const row = selectRoutes(db).where(eq(routes.id, id)).get()
  if (!row) return undefined
  return { ...toListItem(row, viewerId), quests: routeStepsOf(db, id) }
}

export function getRoute(db: DB, viewerId: number, id: number): RouteDetail {
  const route = findRoute(db, viewerId, id)
  if (!route) throw new NotFound(`No route ${id}.`)
  return route
}

function routeStepsOf(db: DB, routeId: number): RouteStepOut[] {
  return statements(db).steps.all({ routeId })
}

// The reads navigation repeats on every call, prepared once per database.
const statements = preparedOnce(prepare)

// Their rows come straight from bun:sqlite (src/db/native.ts).
function prepare(db: DB) {
  const routeId = sql.placeholder('routeId')
  return {
    steps: prepareNative(
      db,
      db
        .select(
          aliased({
            position: routeSteps.position,
            name: routeSteps.name,
            difficulty: routeSteps.difficulty,
            setting: routeSteps.setting,
          }),
        )
        .from(routeSteps)
        .where(eq(routeSteps.routeId, routeId))
        .orderBy(asc(routeSteps.position)),
    ),
    route: db.select({ id: routes.id, name: routes.name }).from(routes).where(eq(routes.id, routeId)).prepare(),
    // Every completion of the character's current life: navigate() matches names without regard to case, which
    // SQLite's lower() cannot do beyond ASCII ("Éclat" vs "éclat"), so no name filter here.
    logged: prepareNative(
      db,
      db
        .select(
          aliased({
            id: completions.id,
            name: completions.name,
            difficulty: completions.difficulty,
            setting: completions.setting,
            completedAt: completions.completedAt,
            durationSeconds: completions.durationSeconds,
          }),
        )
        .from(completions)
        .where(
          and(
            eq(completions.characterId, sql.placeholder('characterId')),
            eq(completions.lifeIndex, sql.placeholder('lifeIndex')),
          ),
        ),
    ),
  }
}

// ---- Navigation ----

export interface NavigationQueryInput {
  characterId: number
  routeId: number
  match?: MatchMode
}

export interface NavigationResult extends NavigationState<StepDifficulty, StepSetting> {
  character: { id: number; name: string; targetDifficulty: string }
  route: { id: number; name: string }
  match: MatchMode
}

/**
 * A navigation read, after its 404s (someone else's or no character, no route): its ETag, which
 * changes with every write to the character and every change of the route, and the answer, built
 * only when the client does not hold that tag already.
 */
export function navigationRead(
  { db, changes }: Pick<Writer, 'db' | 'changes'>,
  userId: number,
  query: NavigationQueryInput,
): { tag: string; answer: () => NavigationResult } {
  const character = ownedCharacterHead(db, userId, query.characterId)
  const route = routeOf(db, query.routeId)
  return {
    tag: changes.navigationTag(query.characterId, query.routeId),
    answer: () => navigationOf(db, character, route, query.match ?? 'setting'),
  }
}

export function navigation(db: DB, userId: number, query: NavigationQueryInput): NavigationResult {
  const character = ownedCharacterHead(db, userId, query.characterId)
  return navigationOf(db, character, routeOf(db, query.routeId), query.match ?? 'setting')
}

function routeOf(db: DB, routeId: number): { id: number; name: string } {
  const route = statements(db).route.get({ routeId })
  if (!route) throw new NotFound(`No route ${routeId}.`)
  return route
}

function navigationOf(
  db: DB,
  character: CharacterHead,
  route: { id: number; name: string },
  match: MatchMode,
): NavigationResult {
  const steps = routeStepsOf(db, route.id)
  const logged = statements(db).logged.all({ characterId: character.id, lifeIndex: currentQuestLife(db, character.id) })
  return {
    character: { id: character.id, name: characterName(character), targetDifficulty: character.targetDifficulty },
    route,
    match,
    ...navigate(steps, logged, match),
  }
}
