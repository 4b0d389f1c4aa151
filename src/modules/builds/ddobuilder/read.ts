// DDO Builder file -> build document: one build of the file (the planner's active one unless a
// caller chooses another), read area by area, and the outline of every life and build. The areas
// are read in one fixed order, so a file with several faults is refused for the same one every
// time.
import type { BuildDocument, DdoBuilderImport } from './document'
import { text } from './nodes'
import { readAbilityBumps, readAbilitySpend } from './readAbilities'
import { type ChosenBuild, chooseBuild } from './readCharacter'
import { leftOutWarnings } from './readLeftOut'
import { readClasses, readLevel, readLevels } from './readLevels'
import { readLife } from './readLife'
import { type DdoBuilderOutline, readOutline } from './readOutline'
import { readSpells } from './readSpells'
import { readStances } from './readStances'
import { readTomes } from './readTomes'
import { readReaperSpend, readTrees } from './readTrees'
import { parseXml } from './xml'

/** A file read: its outline, and a plan read from any of its builds (parsed once). */
export interface DdoBuilderFile extends DdoBuilderOutline {
  /** The plan of build `number` (default: the planner's active one), with what it left out. */
  plan(number?: number): DdoBuilderImport & { build: number }
}

/** Reads a DDO Builder character file: every life and build, and a plan from the build chosen. */
export function readDdoBuilder(xml: string): DdoBuilderFile {
  const outline = readOutline(parseXml(xml))
  const { lives, characterFeats, activeBuild } = outline
  return { lives, characterFeats, activeBuild, plan: (number) => planOf(chooseBuild(outline, number)) }
}

/** Reads the planner's active build of a DDO Builder character file into a planned build document. */
export function fromDdoBuilder(xml: string): DdoBuilderImport {
  const { document, warnings } = readDdoBuilder(xml).plan()
  return { document, warnings }
}

function planOf({ character, life, build, number, warnings }: ChosenBuild): DdoBuilderImport & { build: number } {
  const tomes = readTomes(character, life)
  const abilitySpend = readAbilitySpend(build)
  const levelAbilityBumps = readAbilityBumps(life, build)
  const levels = readLevels(build)
  const trainedSpells = readSpells(build)
  const reaperSpend = readReaperSpend(build)
  const level = readLevel(build, levels)
  const enhancementTrees = readTrees(build, 'enhancement')
  const destinyTrees = readTrees(build, 'destiny')
  const document: BuildDocument = {
    schemaVersion: 1,
    meta: { source: 'DDO Builder file', gameCharacterId: null },
    life: readLife(character, life, build),
    tomes,
    build: {
      level,
      classes: readClasses(build),
      abilitySpend,
      levelAbilityBumps,
      levels,
      enhancementTrees,
      destinyTrees,
      reaper: { spend: reaperSpend },
      trainedSpells,
      stances: readStances(build),
      notes: text(build, 'Notes') ?? '',
    },
  }
  return { document, build: number, warnings: [...warnings, ...leftOutWarnings(character, life, build)] }
}
