// Test-only: turns a DDO Builder character file (XML) into our build document, the way a
// client would before uploading it. Regular expressions are enough for these files.
//
// DDO Builder stores `AbilitySpend` as the number of raises above 8 (its AbilitySpend.cpp adds
// the costs 1,1,1,1,1,1,2,2,3,3 per raise), while our document holds build points spent
// (GAME-RULES.md), so the spend is converted: 9 raises (score 17) are 13 points.
import type { BuildDocument } from '../src/modules/builds/model'
import { POINT_BUY_COST } from '../src/rules/gameData'

const element = (tag: string) => `<${tag}(?: [^>]*)?>([\\s\\S]*?)</${tag}>`
const text = (xml: string, tag: string) => xml.match(new RegExp(element(tag)))?.[1]
const all = (xml: string, tag: string) => [...xml.matchAll(new RegExp(element(tag), 'g'))].map((m) => m[1])
const int = (xml: string, tag: string) => Number(text(xml, tag) ?? 0)

export const raisesToPoints = (raises: number) => POINT_BUY_COST[8 + raises]

export function ddoBuildToDocument(xml: string): BuildDocument {
  const lifeXml = text(xml, 'Life') ?? ''
  const buildXml = text(lifeXml, 'Build') ?? ''
  // Name, race and alignment come before the build (gear further down has <Name> elements too).
  const lifeHead = lifeXml.slice(0, lifeXml.indexOf('<Build'))
  const characterFeats = text(xml.slice(0, xml.indexOf('<Life')), 'SpecialFeats') ?? ''
  const stacks = new Map<string, { name: string; type: string; stacks: number }>()
  for (const feat of all(characterFeats, 'TrainedFeat')) {
    const name = text(feat, 'FeatName') ?? ''
    const type = text(feat, 'Type') ?? ''
    const key = `${type}/${name}`
    const found = stacks.get(key)
    if (found) found.stacks += 1
    else stacks.set(key, { name, type, stacks: 1 })
  }
  const slot = (n: number) => {
    const name = text(buildXml, `Class${n}`)
    return name && name !== 'Unknown' ? name : null
  }
  const bumps: Record<string, string> = {}
  for (const m of buildXml.matchAll(/<Level(\d+)>(\w+)<\/Level\d+>/g)) bumps[m[1]] = m[2]
  return {
    schemaVersion: 1,
    meta: { source: 'DDO Builder file', gameCharacterId: null },
    life: {
      name: text(lifeHead, 'Name') ?? '',
      race: text(lifeHead, 'Race') ?? '',
      alignment: text(lifeHead, 'Alignment') ?? '',
      specialFeats: [...stacks.values()],
    },
    tomes: {
      str: int(xml, 'StrTome'),
      dex: int(xml, 'DexTome'),
      con: int(xml, 'ConTome'),
      int: int(xml, 'IntTome'),
      wis: int(xml, 'WisTome'),
      cha: int(xml, 'ChaTome'),
    },
    build: {
      level: int(buildXml, 'Level'),
      classes: [slot(1), slot(2), slot(3)],
      abilitySpend: {
        available: int(buildXml, 'AvailableSpend'),
        str: raisesToPoints(int(buildXml, 'StrSpend')),
        dex: raisesToPoints(int(buildXml, 'DexSpend')),
        con: raisesToPoints(int(buildXml, 'ConSpend')),
        int: raisesToPoints(int(buildXml, 'IntSpend')),
        wis: raisesToPoints(int(buildXml, 'WisSpend')),
        cha: raisesToPoints(int(buildXml, 'ChaSpend')),
      },
      levelAbilityBumps: bumps,
      levels: all(buildXml, 'LevelTraining').map((level) => ({
        class: text(level, 'Class') ?? 'Unknown',
        skills: all(level, 'Skill'),
      })),
      stances: all(buildXml, 'Stances'),
      notes: text(buildXml, 'Notes') ?? '',
    },
  }
}
