// GET /api/characters/{id}/events: a server-sent event each time the character's data changes,
// so an open tracker updates by itself. The stream starts with `ready`, the version it continues
// from: a page that read the character at that version has missed nothing and need not read
// again. Fed by the change feed, which every service that writes a character's data tells what
// it changed (deps.ts `Writer`), from either API. A stream ends with the session it was opened
// with: at once on a sign-out in this process (SignOuts), else at its next ping (stream.ts).
import type { ModuleDeps } from '../../deps'
import { errors, IdParams } from '../../http/model'
import type { Guard } from '../auth/guard'
import { signedInRoutes } from '../auth/guard'
import { assertOwnsCharacter } from '../characters/access'
import type { SignOuts } from '../session/signOuts'
import type { Change } from './feed'
import { eventStream, type StreamCounter } from './stream'

export { MAX_STREAMS_PER_ACCOUNT, PING_MS } from './stream'

// One write reaches every tab open on its character: its event is written out once, for all.
const eventTexts = new WeakMap<Change, string>()

/**
 * `event: change` with `{characterId, what, tag, delta}`: the character's new ETag, and what
 * changed when the writer said so (feed.ts ChangeDelta; null: re-read).
 */
function eventText(change: Change): string {
  let text = eventTexts.get(change)
  if (text === undefined) {
    const { characterId, what, tag } = change
    text = `event: change\ndata: ${JSON.stringify({ characterId, what, tag, delta: change.delta() })}\n\n`
    eventTexts.set(change, text)
  }
  return text
}

export function eventsModule(
  { db, clock, changes }: ModuleDeps,
  guard: Guard,
  signOuts: SignOuts,
  counter: StreamCounter,
) {
  return signedInRoutes(guard, '/characters', ['Website']).get(
    '/:id/events',
    ({ user, credential, params, request, server }) => {
      assertOwnsCharacter(db, user.id, params.id)
      return eventStream(
        { db, clock, signOuts, counter },
        { user, credential, request, server },
        {
          listen: ({ send, write }) => {
            const stop = changes.subscribe(params.id, (change) => write(eventText(change)))
            // After subscribing: every change after this version comes as an event.
            send('ready', { characterId: params.id, tag: changes.characterTag(params.id) })
            return stop
          },
        },
      )
    },
    {
      params: IdParams,
      response: { ...errors(404, 429) },
      detail: { summary: "Server-sent events: the character's data changed" },
    },
  )
}
