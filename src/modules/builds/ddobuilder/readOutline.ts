// What a whole file holds, beyond the one build a plan is read from: every life (name, race,
// alignment, its own special feats) and every build of each (level, class split, notes, completed
// quests), in the file's order, and which build is the planner's active one. A leveling guide
// holds a build per level; a player's file holds a life per reincarnation.
import { type LevelSummary, summarizeLevels } from '../../../rules/builds/buildLevels'
import type { SpecialFeatInput } from './document'
import { DdoBuilderFormatError } from './formatError'
import { child, children, text, whole, type XmlNode } from './nodes'
import { readClasses, readLevel, readLevels } from './readLevels'
import { collectFeats } from './readSpecialFeats'
import { NOT_RUN, plannerSetting, plannerSkulls, ROOT } from './vocabulary'

/** A quest the file marks as completed: its name and level as the planner writes them. */
export interface FileQuest {
  name: string
  /** The quest's level in the planner (it names one quest at several levels); null when absent. */
  level: number | null
  /** The planner's difficulty word, and our setting for it (`Solo` is casual, `R1`…`R10` reaper). */
  difficulty: string
  setting: ReturnType<typeof plannerSetting>
  /** The skulls of a reaper difficulty (`R2`: 2); null for any other. */
  reaperSkulls: number | null
}

export interface FileBuild {
  /** 1-based, over every build of the file in order (life 1's builds first). */
  number: number
  /** 1-based index of its life. */
  life: number
  level: number
  classes: LevelSummary['classes']
  notes: string
  completedQuests: FileQuest[]
}

export interface FileLife {
  /** 1-based, in the file's order: the planner adds lives oldest first. */
  number: number
  name: string
  race: string
  alignment: string
  /** The life's own special feats (the character's past lives are the file's `pastLives`). */
  specialFeats: SpecialFeatInput[]
  builds: FileBuild[]
}

export interface DdoBuilderOutline {
  lives: FileLife[]
  /** The character's special feats, past lives among them, as the file holds them now. */
  characterFeats: SpecialFeatInput[]
  /** The number of the planner's active build (its ActiveLifeIndex and ActiveBuildIndex). */
  activeBuild: number
}

/** The element of a parsed file the outline and the plan are read from: its Character. */
export function characterOf(file: XmlNode): XmlNode {
  const rootName = Object.keys(file).find((key) => key !== '#text')
  if (rootName === undefined) {
    throw new DdoBuilderFormatError('The file has no XML element: expected a DDO Builder character file (.DDOBuild).')
  }
  if (rootName !== ROOT) {
    throw new DdoBuilderFormatError(
      `The file is XML but not a DDO Builder character: its root element is <${rootName.slice(0, 60)}>, not <${ROOT}>.`,
    )
  }
  const character = child(child(file, ROOT), 'Character')
  if (!character) throw new DdoBuilderFormatError(`The DDO Builder file has no character (${ROOT} > Character).`)
  return character
}

function completedQuests(build: XmlNode): FileQuest[] {
  return children(build, 'CompletedQuest')
    .map((quest) => {
      const difficulty = (text(quest, 'Difficulty') ?? '').trim()
      return {
        name: (text(quest, 'Name') ?? '').trim(),
        level: whole(quest, 'Level', 'CompletedQuest') ?? null,
        difficulty,
        setting: plannerSetting(difficulty),
        reaperSkulls: plannerSkulls(difficulty),
      }
    })
    .filter((quest) => quest.name !== '' && quest.difficulty !== NOT_RUN)
}

/** Every life and build of the file's character; a file without a life or a build is refused. */
export function readOutline(file: XmlNode): DdoBuilderOutline & { character: XmlNode; elements: XmlNode[][] } {
  const character = characterOf(file)
  const lifeElements = children(character, 'Life')
  if (lifeElements.length === 0) {
    throw new DdoBuilderFormatError(
      'The DDO Builder character has no life (Character > Life), so there is no build to import.',
    )
  }
  let number = 0
  const elements: XmlNode[][] = []
  const lives = lifeElements.map((life, i): FileLife => {
    const buildElements = children(life, 'Build')
    elements.push(buildElements)
    return {
      number: i + 1,
      name: text(life, 'Name') ?? '',
      race: text(life, 'Race') ?? '',
      alignment: text(life, 'Alignment') ?? '',
      specialFeats: collectFeats([child(life, 'SpecialFeats')]),
      builds: buildElements.map((build) => {
        const levels = readLevels(build)
        const level = readLevel(build, levels)
        return {
          number: ++number,
          life: i + 1,
          level,
          classes: summarizeLevels({ level, classes: readClasses(build), levels }).classes,
          notes: text(build, 'Notes') ?? '',
          completedQuests: completedQuests(build),
        }
      }),
    }
  })
  if (number === 0) {
    throw new DdoBuilderFormatError(
      'The DDO Builder character has no build in its life (Character > Life > Build), so there is nothing to import.',
    )
  }
  const lifeIndex = whole(character, 'ActiveLifeIndex', 'Character') ?? 0
  const buildIndex = whole(character, 'ActiveBuildIndex', 'Character') ?? 0
  const activeLife = lives[lifeIndex] ?? lives.find((life) => life.builds.length > 0)
  const active = activeLife?.builds[buildIndex] ?? activeLife?.builds[0] ?? lives.flatMap((l) => l.builds)[0]
  return {
    lives,
    characterFeats: collectFeats([child(character, 'SpecialFeats')]),
    activeBuild: active?.number ?? 1,
    character,
    elements,
  }
}
