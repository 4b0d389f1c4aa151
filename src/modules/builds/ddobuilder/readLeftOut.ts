// What a file holds and the build document cannot: one warning per kind (gear, attack chains,
// buffs, guild level; completed quests are the outline's, imported as completions when chosen) and one per element the reader does not know.
import { child, text, texts, whole, type XmlNode } from './nodes'
import { gearWarnings } from './readGear'
import { BUILD_READ, CHARACTER_READ, LIFE_READ } from './vocabulary'

function unknownElements(node: XmlNode, known: Set<string>, where: string): string[] {
  return Object.keys(node)
    .filter((tag) => !known.has(tag) && tag !== '#text')
    .map((tag) => `${where} > ${tag} is not something a build document holds; it is not imported.`)
}

export function leftOutWarnings(character: XmlNode, life: XmlNode, build: XmlNode): string[] {
  const warnings = gearWarnings(build)
  const chains = child(build, 'ActiveAttackChain')
  if ((chains && Object.keys(chains).length > 0) || (text(build, 'ActiveAttackChain') ?? '').trim() !== '') {
    warnings.push('Attack chains are not imported.')
  }
  const buffs = texts(life, 'SelfAndPartyBuffs').filter((b) => b.trim() !== '')
  if (buffs.length > 0) warnings.push(`Self and party buffs (${buffs.length}) are not imported.`)
  const guildLevel = whole(character, 'GuildLevel', 'Character') ?? 0
  if (guildLevel > 0) warnings.push(`Guild level ${guildLevel} and its guild buffs are not imported.`)
  return [
    ...warnings,
    ...unknownElements(character, CHARACTER_READ, 'Character'),
    ...unknownElements(life, LIFE_READ, 'Character > Life'),
    ...unknownElements(build, BUILD_READ, 'Character > Life > Build'),
  ]
}
