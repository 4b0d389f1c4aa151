// Who in a group still needs what (GET /groups/{id}/needs), computed once per change and shared by
// every member (issue 39, item 7). Every open tracker of the group reads it again after each event
// of the group's stream (a completion, a share), and it read every shared character's completions
// each time: 0.7 s at 200,000 of them, eight trackers at once ten times that. Now:
// - each character's done ranks over the catalog (rules/quests/groupNeeds.ts doneRanks: a byte a
//   row) are kept by the character's change tag, so a change reads that character's completions
//   alone, once;
// - each group's answer per setting is kept serialized (and gzipped on the first request that
//   accepts it) under a tag made of the shared characters' change tags, when each was shared and
//   the catalog's version: the other members' trackers get the same bytes, and a tracker that
//   holds the tag a 304.
// In memory and bounded (limits.ts); a write this process does not publish (another process's:
// the CLI) changes every tag (the change feed's outside count), so nothing kept outlives it.
import { and, eq, sql } from 'drizzle-orm'
import type { Static } from 'elysia'
import { status } from 'elysia'
import type { DB } from '../../db/client'
import { aliased, prepareNative } from '../../db/native'
import { preparedOnce } from '../../db/prepared'
import { completions, groupShares } from '../../db/schema'
import { NotFound } from '../../http/errors'
import { holdsTag, TAGGED_CACHE_CONTROL } from '../../http/etag'
import { maybeGzipped } from '../../http/gzip'
import type { Setting } from '../../rules/quests/completion'
import { doneRanks, type RankedCharacter, rankedNeed } from '../../rules/quests/groupNeeds'
import { indexCompletions } from '../../rules/quests/tracker'
import { versionedRows } from '../catalog/service'
import { currentQuestLife } from '../completions/service'
import type { ChangeFeed } from '../events/feed'
import { MAX_KEPT_NEEDS_ANSWERS, MAX_KEPT_NEEDS_CHARACTERS } from './limits'
import type { NeedsAnswer, NeedsQuery } from './model'
import { memberGroup, sharedCharacters } from './service'

type Answer = Static<typeof NeedsAnswer>

interface KeptRanks {
  /** The character's change tag and the catalog's version they were made at. */
  tag: string
  ranks: Uint8Array
}

interface KeptAnswer {
  tag: string
  json: string
  gzipped?: Uint8Array<ArrayBuffer>
}

interface Settable {
  headers: Record<string, string | number>
}

const sharesStatement = preparedOnce((db: DB) =>
  prepareNative(
    db,
    db
      .select(aliased({ id: groupShares.characterId, sharedAt: groupShares.sharedAt }))
      .from(groupShares)
      .where(eq(groupShares.groupId, sql.placeholder('groupId')))
      // The order sharedCharacters lists them in.
      .orderBy(groupShares.sharedAt, groupShares.characterId),
  ),
)

const lifeCompletionsStatement = preparedOnce((db: DB) =>
  prepareNative(
    db,
    db
      .select(aliased({ name: completions.name, difficulty: completions.difficulty, setting: completions.setting }))
      .from(completions)
      .where(
        and(
          eq(completions.characterId, sql.placeholder('characterId')),
          eq(completions.lifeIndex, sql.placeholder('life')),
        ),
      ),
  ),
)

/** The needs of one app: what is kept, and the feed whose tags say whether it still holds. */
export class GroupNeeds {
  private readonly ranks = new Map<number, KeptRanks>()
  /** By `groupId.setting`, least recently used first. */
  private readonly answers = new Map<string, KeptAnswer>()

  constructor(private readonly changes: ChangeFeed) {}

  /**
   * The answer for a member: 404 for a group they are not in (whatever tag they hold) or a quest
   * the catalog does not have, then 304 when `request` holds the current tag, else the answer.
   */
  answer(db: DB, userId: number, groupId: number, query: Static<typeof NeedsQuery>, request: Request, set: Settable) {
    memberGroup(db, userId, groupId)
    const setting = (query.setting ?? 'elite') as Exclude<Setting, 'unknown'>
    const catalog = versionedRows(db)
    const wanted = query.quest?.trim().toLowerCase()
    const filtered = wanted !== undefined || query.difficulty !== undefined
    const rows: number[] = []
    catalog.rows.forEach((row, i) => {
      if (
        (wanted === undefined || row.name.toLowerCase() === wanted) &&
        (query.difficulty === undefined || row.difficulty === query.difficulty)
      )
        rows.push(i)
    })
    if (wanted !== undefined && rows.length === 0) {
      throw new NotFound(`No quest "${query.quest}"${query.difficulty ? ` (${query.difficulty})` : ''} in the catalog.`)
    }
    const shares = sharesStatement(db).all({ groupId }) as { id: number; sharedAt: string }[]
    let scope = `g${groupId}.${setting}.${catalog.version}`
    if (filtered) scope += `.${wanted ?? ''}\u0000${query.difficulty ?? ''}`
    for (const share of shares) scope += `,${share.sharedAt}`
    const tag = this.changes.charactersTag(
      scope,
      shares.map((share) => share.id),
    )
    set.headers.etag = tag
    set.headers['cache-control'] = TAGGED_CACHE_CONTROL
    if (holdsTag(request, tag)) return status<304, void>(304)
    if (filtered) return this.compute(db, groupId, setting, catalog, rows)
    const key = `${groupId}.${setting}`
    let kept = this.answers.get(key)
    if (kept?.tag === tag) {
      // The most recently used last.
      this.answers.delete(key)
    } else {
      kept = { tag, json: JSON.stringify(this.compute(db, groupId, setting, catalog, rows)) }
    }
    this.answers.set(key, kept)
    if (this.answers.size > MAX_KEPT_NEEDS_ANSWERS) this.answers.delete(this.answers.keys().next().value as string)
    const answer = kept
    return maybeGzipped(request, answer.json, () => (answer.gzipped ??= Bun.gzipSync(answer.json)), {
      'content-type': 'application/json; charset=utf-8',
      etag: tag,
      'cache-control': TAGGED_CACHE_CONTROL,
    })
  }

  private compute(
    db: DB,
    groupId: number,
    setting: Exclude<Setting, 'unknown'>,
    catalog: ReturnType<typeof versionedRows>,
    rows: readonly number[],
  ): Answer {
    const shared = sharedCharacters(db, groupId)
    const ranked = shared.map((character) => this.rankedCharacter(db, character.id, catalog))
    return {
      setting,
      characters: shared,
      quests: rows.map((i) => rankedNeed(catalog.rows[i] as (typeof catalog.rows)[number], i, ranked, setting)),
    }
  }

  /** The character's done ranks over the catalog: kept while its change tag and the catalog stand. */
  private rankedCharacter(db: DB, id: number, catalog: ReturnType<typeof versionedRows>): RankedCharacter {
    const tag = `${this.changes.characterTag(id)}.${catalog.version}`
    const kept = this.ranks.get(id)
    if (kept?.tag === tag) return { id, ranks: kept.ranks }
    const life = currentQuestLife(db, id)
    const done = lifeCompletionsStatement(db).all({ characterId: id, life })
    const ranks = doneRanks(catalog.rows, indexCompletions(done))
    // Bounded: all forgotten when full (as the server's other kept look-ups are), read again as asked.
    if (!kept && this.ranks.size >= MAX_KEPT_NEEDS_CHARACTERS) this.ranks.clear()
    this.ranks.set(id, { tag, ranks })
    return { id, ranks }
  }
}
