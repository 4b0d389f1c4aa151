// DDO Builder file -> build document: the file's active life and build, read area by area.
// The areas are read in one fixed order, so a file with several faults is refused for the same
// one every time.
import type { BuildDocument, DdoBuilderImport } from './document'
import { text } from './nodes'
import { readAbilityBumps, readAbilitySpend } from './readAbilities'
import { readActiveBuild } from './readCharacter'
import { leftOutWarnings } from './readLeftOut'
import { readClasses, readLevel, readLevels } from './readLevels'
import { readLife } from './readLife'
import { readSpells } from './readSpells'
import { readStances } from './readStances'
import { readTomes } from './readTomes'
import { readReaperSpend, readTrees } from './readTrees'
import { parseXml } from './xml'

/** Reads a DDO Builder character file into a planned build document, with what it left out. */
export function fromDdoBuilder(xml: string): DdoBuilderImport {
  const { character, life, build, warnings } = readActiveBuild(parseXml(xml))
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
  return { document, warnings: [...warnings, ...leftOutWarnings(character, life, build)] }
}
