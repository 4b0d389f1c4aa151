// The share view's answer: the character and its progress, as the owner's own API gives them.
import { t } from 'elysia'
import { Character } from '../characters/model'
import { Progress } from '../progress/model'

export const SharedTracker = t.Object({ character: Character, progress: Progress })

export const ShareParams = t.Object({ token: t.String({ maxLength: 100 }) })
