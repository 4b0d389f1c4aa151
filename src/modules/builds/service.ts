// The live snapshot and the planned build of a character: storing, merging, promoting, the
// planned breakdown and validation, and the profile sync (plugin-api.md "Live snapshot",
// "Planned build", "States and transitions"). Every write is one transaction: the build, the
// character profile and the current life change together or not at all.
import { and, eq } from 'drizzle-orm'
import type { Clock } from '../../clock'
import { isoNow } from '../../clock'
import type { DB } from '../../db/client'
import { builds, characters, lives } from '../../db/schema'
import type { Writer } from '../../deps'
import { NotFound, PayloadTooLarge } from '../../http/errors'
import { jsonBytes, kib } from '../../http/size'
import { isPlainObject, type Json } from '../../json'
import { breakdown } from '../../rules/builds/breakdown'
import { summarizeLevels } from '../../rules/builds/buildLevels'
import { validateBuild } from '../../rules/builds/buildValidation'
import { MAX_CLASS_LEVEL, MAX_CLASSES } from '../../rules/character/gameData'
import { normalizeFeats, replacePastLives } from '../../rules/character/pastLives'
import { ownedCharacter } from '../characters/access'
import { headChange } from '../characters/service'
import { MAX_BUILD_DOCUMENT_BYTES } from './limits'
import { assertLifeSize, currentLife, type Db, type LifeRow, toLife } from './lives/service'
import type { BuildDocument, PartialBody, PutBody } from './model'

type Role = 'live' | 'planned'
type BuildRow = typeof builds.$inferSelect
type CharacterRow = typeof characters.$inferSelect

/**
 * A PUT body as a document: `{document, meta?, incomplete?, source?}` or the document itself.
 * `meta`, `incomplete` and `source` beside the document land in the document's `meta`.
 */
export function documentFromBody(body: PutBody): BuildDocument {
  const { document, merge: _merge, incomplete, source, ...rest } = body
  const doc: BuildDocument = document ? { ...document } : { ...rest }
  let meta: Json | undefined = doc.meta
  if (document && body.meta) meta = { ...meta, ...body.meta }
  if (incomplete !== undefined) meta = { ...meta, incomplete }
  if (source !== undefined) meta = { ...meta, source }
  if (meta !== undefined) doc.meta = meta
  return doc
}

export function mergeRequested(body: PutBody, query: string | undefined): boolean {
  return body.merge === true || query === '1' || query === 'true'
}

/** Shallow merge per section: each object section sent is merged key by key; anything else replaces. */
export function mergeDocument(base: BuildDocument, patch: Json): BuildDocument {
  const merged: Json = { ...base }
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue
    const current = merged[key]
    merged[key] = isPlainObject(value) && isPlainObject(current) ? { ...current, ...value } : value
  }
  return merged as BuildDocument
}

/** A merge patch (`live/partial`, `build/partial`) applied to a document. */
export function applyPatch(base: BuildDocument, patch: PartialBody): BuildDocument {
  const { pastLives, reaperPoints, ...sections } = patch
  const doc = mergeDocument(base, sections)
  if (pastLives) {
    doc.life = { ...doc.life, specialFeats: replacePastLives(doc.life?.specialFeats ?? [], pastLives) }
  }
  if (reaperPoints !== undefined) {
    doc.build = { ...doc.build, reaper: { ...doc.build?.reaper, pointsAvailable: reaperPoints } }
  }
  return doc
}

function findBuild(db: Db, characterId: number, role: Role): BuildRow | undefined {
  return db
    .select()
    .from(builds)
    .where(and(eq(builds.characterId, characterId), eq(builds.role, role)))
    .get()
}

const SLOT_NAMES: Record<Role, string> = { live: 'The live snapshot', planned: 'The planned build' }

/**
 * Stores a document in its slot; planned documents get their breakdown and validation here.
 * The whole document, as it would be stored after the merge or replace, is measured here: 413
 * over the limit, thrown inside the caller's transaction, so nothing of the request is written.
 */
function storeBuild(db: Db, clock: Clock, characterId: number, role: Role, document: BuildDocument): BuildRow {
  const doc: BuildDocument = { ...document, role }
  let breakdownCache: Json | null = null
  let validationErrors: string[] = []
  if (role === 'planned') {
    const { role: _r, breakdown: _b, ...plan } = doc
    breakdownCache = breakdown(plan) as unknown as Json
    validationErrors = validateBuild(plan)
    doc.breakdown = breakdownCache
  }
  const size = jsonBytes(doc)
  if (size > MAX_BUILD_DOCUMENT_BYTES) {
    throw new PayloadTooLarge(
      `${SLOT_NAMES[role]} would take ${kib(size)} as JSON; a build document may take at most ${kib(MAX_BUILD_DOCUMENT_BYTES)} (send smaller sections, or replace the document instead of merging into it).`,
    )
  }
  const values = {
    document: doc as Json,
    meta: doc.meta ?? {},
    breakdownCache,
    validationErrors,
    reaperPointsAvailable: doc.build?.reaper?.pointsAvailable ?? null,
    updatedAt: isoNow(clock),
  }
  return db
    .insert(builds)
    .values({ characterId, role, ...values })
    .onConflictDoUpdate({ target: [builds.characterId, builds.role], set: values })
    .returning()
    .get()
}

/**
 * The quest-tracker profile follows the build: classes and levels, level (epic levels; a level
 * set by PUT progress is cleared), race, and the current life's name, race, alignment, classes
 * and past lives. Only what the document says is synced; absent sections leave the profile alone.
 */
export function syncProfile(db: Db, clock: Clock, character: CharacterRow, document: BuildDocument): void {
  const summary = summarizeLevels(document.build)
  const profile: Partial<typeof characters.$inferInsert> = {}
  const classes = summary.classesKnown
    ? summary.classes.slice(0, MAX_CLASSES).map((c) => ({ name: c.name, levels: Math.min(c.levels, MAX_CLASS_LEVEL) }))
    : undefined
  if (classes) profile.classes = classes
  if (summary.level !== null) {
    profile.epicLevels = summary.epicLevels
    profile.characterLevelOverride = null
  }
  const race = document.life?.race?.trim()
  if (race) profile.race = race
  const alignment = document.life?.alignment?.trim()
  if (alignment) profile.alignment = alignment
  if (Object.keys(profile).length > 0) {
    db.update(characters)
      .set({ ...profile, updatedAt: isoNow(clock) })
      .where(eq(characters.id, character.id))
      .run()
  }

  const life = currentLife(db, clock, character)
  const changes: Partial<typeof lives.$inferInsert> = {}
  const name = document.life?.name?.trim()
  if (name) changes.name = name
  if (race) changes.race = race
  if (alignment) changes.alignment = alignment
  if (classes) changes.classes = classes
  if (document.life?.specialFeats) changes.specialFeats = normalizeFeats(document.life.specialFeats)
  if (Object.keys(changes).length > 0) {
    // Thrown inside the caller's transaction: the build and the profile are not written either.
    assertLifeSize({ ...life, ...changes }, 'The current life', ': send fewer or shorter special feats')
    db.update(lives).set(changes).where(eq(lives.id, life.id)).run()
  }
}

function liveView(row: BuildRow, life: LifeRow) {
  return {
    role: 'live' as const,
    life: toLife(life),
    document: row.document,
    meta: row.meta,
    updatedAt: row.updatedAt,
  }
}

function plannedView(row: BuildRow | undefined, life: LifeRow) {
  return {
    role: 'planned' as const,
    life: toLife(life),
    document: row?.document ?? null,
    reaperPointsAvailable: row?.reaperPointsAvailable ?? null,
    breakdownCache: row?.breakdownCache ?? null,
    validationErrors: row?.validationErrors ?? [],
    updatedAt: row?.updatedAt ?? null,
  }
}

export type LiveView = ReturnType<typeof liveView>
export type PlannedView = ReturnType<typeof plannedView>

const noLive = (characterId: number) => new NotFound(`Character ${characterId} has no live snapshot yet.`)

/** Runs `work` in one immediate transaction on a character the user owns (404 otherwise). */
function onCharacter<T>(db: DB, userId: number, characterId: number, work: (tx: Db, character: CharacterRow) => T): T {
  return db.transaction((tx) => work(tx, ownedCharacter(tx, userId, characterId)), { behavior: 'immediate' })
}

/** onCharacter for a write: once it is committed, `what` changed is published. */
function changeCharacter<T>(
  { db, changes }: Writer,
  userId: number,
  characterId: number,
  what: 'live' | 'build',
  work: (tx: Db, character: CharacterRow) => T,
): T {
  const result = onCharacter(db, userId, characterId, work)
  // A build may sync the profile (classes, level, race), never the completions or the lives shown.
  changes.publish(characterId, what, () => headChange(ownedCharacter(db, userId, characterId))())
  return result
}

const changeOf = (role: Role) => (role === 'live' ? 'live' : 'build')

export function getLive(db: DB, clock: Clock, userId: number, characterId: number): LiveView {
  return onCharacter(db, userId, characterId, (tx, character) => {
    const row = findBuild(tx, character.id, 'live')
    if (!row) throw noLive(characterId)
    return liveView(row, currentLife(tx, clock, character))
  })
}

/** PUT live: replaces the snapshot, or merges into it; syncs the profile. The planned build is untouched. */
export function putLive(writer: Writer, userId: number, characterId: number, document: BuildDocument, merge: boolean) {
  return changeCharacter(writer, userId, characterId, 'live', (tx, character) => {
    const stored = findBuild(tx, character.id, 'live')
    const next = merge && stored ? mergeDocument(stored.document, document) : document
    return saveBuild(tx, writer.clock, character, 'live', next)
  })
}

type ViewOf<R extends Role> = R extends 'live' ? LiveView : PlannedView

/**
 * Stores the live snapshot or the planned build and answers its view. The live snapshot always
 * syncs the profile (classes, level, race, past lives); a planned save does only while there is
 * no live snapshot (v4 rule).
 */
function saveBuild<R extends Role>(tx: Db, clock: Clock, character: CharacterRow, role: R, document: BuildDocument) {
  const row = storeBuild(tx, clock, character.id, role, document)
  if (role === 'live' || !findBuild(tx, character.id, 'live')) {
    syncProfile(tx, clock, character, row.document)
  }
  const life = currentLife(tx, clock, character)
  return (role === 'live' ? liveView(row, life) : plannedView(row, life)) as ViewOf<R>
}

/**
 * Stores a planned build inside the caller's transaction, syncing the profile (and the current
 * life) from it only when `asCharacter` says so: an imported plan says who the character means to
 * become, not who it is now, unless the player chose that too (see fileImport.ts).
 */
export function storePlan(
  tx: Db,
  clock: Clock,
  character: CharacterRow,
  document: BuildDocument,
  asCharacter: boolean,
) {
  const row = storeBuild(tx, clock, character.id, 'planned', document)
  if (asCharacter) syncProfile(tx, clock, character, row.document)
  return plannedView(row, currentLife(tx, clock, character))
}

/** PUT live/partial and build/partial: a merge patch onto the stored document (or an empty one). */
export function patchBuild<R extends Role>(
  writer: Writer,
  userId: number,
  characterId: number,
  role: R,
  patch: PartialBody,
): ViewOf<R> {
  return changeCharacter(writer, userId, characterId, changeOf(role), (tx, character) => {
    const stored = findBuild(tx, character.id, role)
    return saveBuild(tx, writer.clock, character, role, applyPatch(stored?.document ?? {}, patch))
  })
}

/** Copies the live snapshot over the planned build (without the live-only `meta.incomplete`). */
export function promoteLive(writer: Writer, userId: number, characterId: number): PlannedView {
  const { clock } = writer
  return changeCharacter(writer, userId, characterId, 'build', (tx, character) => {
    const live = findBuild(tx, character.id, 'live')
    if (!live) throw noLive(characterId)
    const { breakdown: _b, ...document } = live.document
    if (document.meta) {
      const { incomplete: _i, ...meta } = document.meta
      document.meta = meta
    }
    const row = storeBuild(tx, clock, character.id, 'planned', document)
    return plannedView(row, currentLife(tx, clock, character))
  })
}

/** GET build: before any planned build is saved, `document` and `updatedAt` are null. */
export function getPlanned(db: DB, clock: Clock, userId: number, characterId: number): PlannedView {
  return onCharacter(db, userId, characterId, (tx, character) =>
    plannedView(findBuild(tx, character.id, 'planned'), currentLife(tx, clock, character)),
  )
}

export function putPlanned(writer: Writer, userId: number, characterId: number, document: BuildDocument) {
  return changeCharacter(writer, userId, characterId, 'build', (tx, character) =>
    saveBuild(tx, writer.clock, character, 'planned', document),
  )
}
