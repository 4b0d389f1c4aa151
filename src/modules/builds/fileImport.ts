// Importing a whole DDO Builder file: the plan from the build the player picks, and, only when
// the player chooses them, who the character is now (race, alignment, classes, level, past
// lives), its whole lives history (a life per reincarnation, oldest first, with the past lives
// each granted) and the completed quests of the picked build (as completions, matched to the
// catalog). The preview says what each choice would change and writes nothing; the import writes
// what was chosen in one transaction. A plan alone never rewrites who the character is now.

import { eq } from 'drizzle-orm'
import type { Static } from 'elysia'
import { isoNow } from '../../clock'
import { IMMEDIATE } from '../../db/client'
import { lives as livesTable } from '../../db/schema'
import type { Writer } from '../../deps'
import { BadRequest } from '../../http/errors'
import { type LevelSummary, summarizeLevels } from '../../rules/builds/buildLevels'
import { classSummary } from '../../rules/character/levels'
import { isPastLife, normalizeFeats, pastLivesByLife } from '../../rules/character/pastLives'
import type { ClassLevels, SpecialFeat } from '../../rules/character/shapes'
import { pastLifeCount } from '../../rules/words'
import { ownedCharacter } from '../characters/access'
import { toCharacterJson } from '../characters/service'
import { type ForeignCompletion, previewImport, writeImport } from '../completions/import'
import type { ImportChoice } from '../completions/importModel'
import { type DdoBuilderFile, type FileLife, readDdoBuilder } from './ddobuilder'
import type { BuildImportPreview } from './importModel'
import { type LifeRow, type NewLife, replaceLives } from './lives/service'
import { documentLimitProblem } from './model'
import { storePlan } from './service'

/** How much of the file the player takes: the plan; also the character as it is now; also its lives. */
export type Take = 'plan' | 'character' | 'history'

export interface FileImportOptions {
  /** The build the plan is read from (the file's builds, numbered in order); default the active one. */
  build?: number
  take?: Take
  /** Also import the picked build's completed quests as completions. */
  quests?: boolean
  choices?: readonly ImportChoice[]
  keepUnmatched?: boolean
}

/** A field of the character the file would change, as it is now and as the file has it. */
export interface CharacterChange {
  field: 'race' | 'alignment' | 'classes' | 'level' | 'pastLives'
  now: string
  file: string
}

const classesText = (classes: ClassLevels[]) => classSummary(classes) || 'no classes'
/** "207 past lives of 69 kinds", as the website counts them. */
function pastLivesText(feats: readonly SpecialFeat[]): string {
  const pastLives = feats.filter((f) => isPastLife(f.type))
  return pastLifeCount(
    pastLives.length,
    pastLives.reduce((n, f) => n + f.stacks, 0),
  )
}

/** The class split a life of the file reached: its highest build (the picked one for the picked life). */
function lifeClasses(life: FileLife, picked: number): LevelSummary['classes'] {
  const own = life.builds.find((b) => b.number === picked)
  const highest = [...life.builds].sort((a, b) => b.level - a.level || b.number - a.number)[0]
  return (own ?? highest)?.classes ?? []
}

/** The file's lives up to the picked build's, as the character's history (the picked one current). */
function historyOf(file: DdoBuilderFile, picked: number, currentFeats: SpecialFeat[]): NewLife[] {
  const pickedLife = file.lives.find((life) => life.builds.some((b) => b.number === picked)) as FileLife
  const kept = file.lives.slice(0, pickedLife.number)
  const finished = kept.slice(0, -1).map((life) => ({ ...life, classes: lifeClasses(life, picked) }))
  const pastLives = pastLivesByLife(currentFeats, finished)
  return kept.map((life, i) => {
    const current = i === kept.length - 1
    const own = life.specialFeats.filter((f) => !isPastLife(f.type ?? ''))
    return {
      name: life.name,
      race: life.race,
      alignment: life.alignment,
      classes: lifeClasses(life, picked),
      // The current life holds what the plan's life holds; a finished one its past lives then.
      specialFeats: current ? currentFeats : normalizeFeats([...(pastLives[i] ?? []), ...own]),
    }
  })
}

/** What importing the file would do (POST build/import/preview): the route's answer. */
export type FileImportPreview = Static<typeof BuildImportPreview>

/** The plan of the picked build, held to PUT build's limits (400 naming the field). */
function planOf(file: DdoBuilderFile, build: number | undefined) {
  const plan = file.plan(build)
  const problem = documentLimitProblem(plan.document)
  if (problem) throw new BadRequest(`The file's build breaks a limit of the build document: ${problem}.`)
  return plan
}

const questsOf = (file: DdoBuilderFile, build: number): ForeignCompletion[] =>
  (file.lives.flatMap((life) => life.builds).find((b) => b.number === build)?.completedQuests ?? []).map(
    (quest, i) => ({
      source: `quest ${i + 1}`,
      name: quest.name,
      level: quest.level,
      setting: quest.setting,
      reaperSkulls: quest.reaperSkulls,
    }),
  )

/** What importing the file with `options` would do; nothing is written. */
export function previewFileImport(
  { db }: Pick<Writer, 'db'>,
  userId: number,
  characterId: number,
  xml: string,
  options: FileImportOptions = {},
): FileImportPreview {
  const character = ownedCharacter(db, userId, characterId)
  const file = readDdoBuilder(xml)
  const plan = planOf(file, options.build)
  const summary = summarizeLevels(plan.document.build)
  const planFeats = normalizeFeats(plan.document.life?.specialFeats ?? [])
  const history = historyOf(file, plan.build, planFeats)
  const pickedLife = file.lives.find((life) => life.builds.some((b) => b.number === plan.build)) as FileLife
  const stored = db.select().from(livesTable).where(eq(livesTable.characterId, characterId)).all()
  const now = stored.find((life) => life.isCurrent)
  const level = summary.level ?? summary.classes.reduce((n, c) => n + c.levels, 0)
  const changes: CharacterChange[] = []
  const change = (field: CharacterChange['field'], before: string, after: string) => {
    if (after !== '' && before !== after) changes.push({ field, now: before, file: after })
  }
  change('race', character.race, (plan.document.life?.race ?? '').trim())
  change('alignment', character.alignment, (plan.document.life?.alignment ?? '').trim())
  if (summary.classesKnown) change('classes', classesText(character.classes), classesText(summary.classes))
  if (summary.level !== null) change('level', String(toCharacterJson(character).characterLevel), String(level))
  change('pastLives', pastLivesText(now?.specialFeats ?? []), pastLivesText(planFeats))
  return {
    build: plan.build,
    activeBuild: file.activeBuild,
    lives: file.lives.map((life) => ({
      number: life.number,
      name: life.name,
      race: life.race,
      alignment: life.alignment,
      classes: lifeClasses(life, plan.build),
      builds: life.builds.length,
    })),
    builds: file.lives.flatMap((life) =>
      life.builds.map((b) => ({
        number: b.number,
        life: b.life,
        level: b.level,
        classes: b.classes,
        notes: b.notes,
        quests: b.completedQuests.length,
      })),
    ),
    plan: {
      name: plan.document.life?.name ?? '',
      race: plan.document.life?.race ?? '',
      alignment: plan.document.life?.alignment ?? '',
      level,
      classes: summary.classes,
      warnings: plan.warnings,
    },
    character: changes,
    history: { stored: stored.length, file: history, ignored: file.lives.length - pickedLife.number },
    quests: previewImport({ db }, userId, characterId, questsOf(file, plan.build), options),
  }
}

/**
 * Imports the file as `options` chose, in one transaction: the plan always; the character, the
 * history and the quests only when chosen. Answers the planned build (as GET build) and what was
 * imported.
 */
export function importFile(
  writer: Writer,
  userId: number,
  characterId: number,
  xml: string,
  options: FileImportOptions = {},
) {
  const { db, clock, changes } = writer
  const take = options.take ?? 'plan'
  // Whose character it is comes first: a stranger learns nothing of how the file reads.
  ownedCharacter(db, userId, characterId)
  const file = readDdoBuilder(xml)
  const plan = planOf(file, options.build)
  const items = options.quests ? questsOf(file, plan.build) : []
  const result = db.transaction((tx) => {
    const character = ownedCharacter(tx, userId, characterId)
    let history: LifeRow[] | null = null
    if (take === 'history') {
      history = replaceLives(
        tx,
        clock,
        character,
        historyOf(file, plan.build, normalizeFeats(plan.document.life?.specialFeats ?? [])),
      )
    }
    const planned = storePlan(tx, clock, character, plan.document, take !== 'plan')
    const quests = options.quests ? previewImport({ db }, userId, characterId, items, options) : null
    if (quests) writeImport(db, characterId, quests, items, isoNow(clock))
    return {
      ...planned,
      warnings: plan.warnings,
      imported: { build: plan.build, take, lives: history?.length ?? null, quests },
    }
  }, IMMEDIATE)
  changes.publish(characterId, 'build')
  if (take !== 'plan') changes.publish(characterId, 'character')
  if (take === 'history') changes.publish(characterId, 'lives')
  if (result.imported.quests && result.imported.quests.add.length > 0) changes.publish(characterId, 'completions')
  return result
}
