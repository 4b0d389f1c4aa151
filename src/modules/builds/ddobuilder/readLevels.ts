// The build's classes and its levels: each level's class, the feats trained at it and the skill
// ranks bought at it (LevelTraining), and the character level the build reaches.
import type { BuildSection, Level } from './document'
import { children, text, texts, whole, type XmlNode } from './nodes'
import { NO_CLASS } from './vocabulary'

/** The three class slots (Class1 … Class3), null where the planner has none. */
export function readClasses(build: XmlNode): BuildSection['classes'] {
  const slot = (n: number) => {
    const name = text(build, `Class${n}`)
    return name && name.trim() !== '' && name.trim() !== NO_CLASS ? name : null
  }
  return [slot(1), slot(2), slot(3)]
}

export function readLevels(build: XmlNode): Level[] {
  return children(build, 'LevelTraining').map((level) => ({
    class: text(level, 'Class') ?? NO_CLASS,
    feats: children(level, 'TrainedFeat').map((feat) => ({
      name: text(feat, 'FeatName') ?? '',
      type: text(feat, 'Type') ?? '',
    })),
    skills: children(level, 'TrainedSkill').flatMap((skill) => texts(skill, 'Skill')),
  }))
}

/** The build's level; a file without one reaches as many levels as it trains. */
export function readLevel(build: XmlNode, levels: Level[]): number {
  return whole(build, 'Level', 'Build') ?? levels.length
}
