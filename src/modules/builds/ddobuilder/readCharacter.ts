// The character, life and build a file is read from: a file may hold several lives, and a life
// several builds; the planner's active ones are imported, with a warning for the others.
import { DdoBuilderFormatError } from './formatError'
import { child, children, whole, type XmlNode } from './nodes'
import { ROOT } from './vocabulary'

/** The three elements every area of the document is read from. */
export interface ActiveBuild {
  character: XmlNode
  life: XmlNode
  build: XmlNode
  warnings: string[]
}

/** The file's character: its root must be DDOBuilderCharacterData, holding a Character. */
function characterOf(file: XmlNode): XmlNode {
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

/** How the warnings name one of several (a life of the file, a build of the life). */
interface Kind {
  one: string
  many: string
  holder: string
}

/** The entry an active index names (the first when it names none), and what that leaves out. */
function active(entries: XmlNode[], index: number, kind: Kind, warnings: string[]): XmlNode {
  const chosen = entries[index] ?? entries[0]
  if (!entries[index]) {
    warnings.push(`The active ${kind.one} (${index + 1}) is not in the file; ${kind.one} 1 is imported.`)
  }
  if (entries.length > 1) {
    warnings.push(
      `${kind.holder} has ${entries.length} ${kind.many}; only the active one (${kind.one} ${entries.indexOf(chosen) + 1}) is imported.`,
    )
  }
  return chosen
}

/** The active life and build of the file's character; a file without either is refused. */
export function readActiveBuild(file: XmlNode): ActiveBuild {
  const character = characterOf(file)
  const lives = children(character, 'Life')
  if (lives.length === 0) {
    throw new DdoBuilderFormatError(
      'The DDO Builder character has no life (Character > Life), so there is no build to import.',
    )
  }
  const warnings: string[] = []
  const lifeIndex = whole(character, 'ActiveLifeIndex', 'Character') ?? 0
  const life = active(lives, lifeIndex, { one: 'life', many: 'lives', holder: 'The file' }, warnings)
  const builds = children(life, 'Build')
  if (builds.length === 0) {
    throw new DdoBuilderFormatError(
      'The DDO Builder character has no build in its life (Character > Life > Build), so there is nothing to import.',
    )
  }
  const buildIndex = whole(character, 'ActiveBuildIndex', 'Character') ?? 0
  const build = active(builds, buildIndex, { one: 'build', many: 'builds', holder: 'The life' }, warnings)
  return { character, life, build, warnings }
}
