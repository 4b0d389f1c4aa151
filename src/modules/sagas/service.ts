// A character's saga progress: the saga table against the completions of its current quest life,
// each saga quest resolved to the catalog with the imports' matcher.
import type { Static } from 'elysia'
import type { DB } from '../../db/client'
import { sagaProgress } from '../../rules/quests/sagas'
import { SAGA_SOURCES, SAGAS } from '../../rules/quests/sagaTable'
import { catalogMatcher } from '../catalog/service'
import { ownedCharacter } from '../characters/access'
import { characterName } from '../characters/service'
import { currentQuestLife } from '../completions/service'
import { listCompletions } from '../progress/service'
import type { CharacterSagas } from './model'

export function characterSagas(db: DB, userId: number, characterId: number): Static<typeof CharacterSagas> {
  const character = ownedCharacter(db, userId, characterId)
  const questLife = currentQuestLife(db, characterId)
  return {
    character: { id: character.id, name: characterName(character) },
    questLife,
    sources: SAGA_SOURCES.map((source) => ({ ...source })),
    sagas: sagaProgress(SAGAS, catalogMatcher(db), listCompletions(db, characterId, questLife)),
  }
}
