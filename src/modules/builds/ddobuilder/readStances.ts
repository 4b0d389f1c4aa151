// The stances the build has active.
import { child, texts, type XmlNode } from './nodes'

export function readStances(build: XmlNode): string[] {
  return texts(child(build, 'ActiveStances'), 'Stances')
}
