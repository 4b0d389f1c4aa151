// The character, life and build a plan is read from: the build a caller chose by number (every
// build of the file, in order: see readOutline.ts), or the planner's active one.
import { DdoBuilderFormatError } from './formatError'
import { whole, type XmlNode } from './nodes'
import type { DdoBuilderOutline } from './readOutline'

/** The three elements every area of the document is read from. */
export interface ChosenBuild {
  character: XmlNode
  life: XmlNode
  build: XmlNode
  /** Its number among the file's builds. */
  number: number
  warnings: string[]
}

/**
 * The build numbered `number` (default: the planner's active one). An active index that names no
 * build is said in a warning, and the first build is taken; a number the file has not is refused.
 */
export function chooseBuild(
  outline: DdoBuilderOutline & { character: XmlNode; elements: XmlNode[][] },
  number?: number,
): ChosenBuild {
  const { character, elements, lives } = outline
  const warnings: string[] = []
  if (number === undefined) {
    const lifeIndex = whole(character, 'ActiveLifeIndex', 'Character') ?? 0
    const buildIndex = whole(character, 'ActiveBuildIndex', 'Character') ?? 0
    if (!elements[lifeIndex]?.[buildIndex]) {
      warnings.push(
        `The planner's active build (life ${lifeIndex + 1}, build ${buildIndex + 1}) is not in the file; build ${outline.activeBuild} is imported.`,
      )
    }
  }
  const wanted = number ?? outline.activeBuild
  const file = lives.flatMap((life) => life.builds).find((build) => build.number === wanted)
  if (!file) {
    const count = lives.reduce((n, life) => n + life.builds.length, 0)
    throw new DdoBuilderFormatError(
      `The file has ${count} build${count === 1 ? '' : 's'}; there is no build ${wanted}.`,
    )
  }
  const lifeBuilds = elements[file.life - 1] ?? []
  const before = lives.slice(0, file.life - 1).reduce((n, life) => n + life.builds.length, 0)
  const life = lifeElement(character, file.life - 1)
  return { character, life, build: lifeBuilds[file.number - before - 1] as XmlNode, number: file.number, warnings }
}

function lifeElement(character: XmlNode, index: number): XmlNode {
  const lives = character.Life
  return (Array.isArray(lives) ? lives[index] : lives) as XmlNode
}
