// The character routes of the plugin API: create, list, meta, find, get, PATCH/PUT, login.
import type { ModuleDeps } from '../../deps'
import { CONDITIONAL, NotModified, tagged } from '../../http/etag'
import { errors, IdParams, OkBody } from '../../http/model'
import { characterMeta } from '../../rules/character/picklists'
import type { Guard } from '../auth/guard'
import { signedInRoutes } from '../auth/guard'
import { assertOwnsCharacter } from './access'
import { MAX_CHARACTERS_PER_ACCOUNT } from './limits'
import {
  Character,
  CharacterCreate,
  CharacterInput,
  CharacterList,
  CharacterMeta,
  FindQuery,
  FindResult,
  LoginBody,
} from './model'
import {
  characterIds,
  createCharacter,
  deleteCharacter,
  findCharacters,
  getCharacter,
  listCharacters,
  noteLogin,
  shareCharacter,
  unshareCharacter,
  updateCharacter,
} from './service'

export function charactersModule({ db, clock, changes }: ModuleDeps, guard: Guard) {
  const writer = { db, clock, changes }
  const update = ({
    user,
    params,
    body,
  }: {
    user: { id: number }
    params: { id: number }
    body: typeof CharacterInput.static
  }) => updateCharacter(writer, user.id, params.id, body)
  const updateHook = (method: string) => ({
    body: CharacterInput,
    response: { 200: Character, ...errors(404) },
    detail: {
      summary: `Update a character (${method}; partial: omitted fields keep their value)`,
      description:
        'PUT behaves exactly as PATCH. `touchLastLogin` or `seen` true sets lastLoginAt to now unless an explicit lastLoginAt is sent. Answers the updated character.',
    },
  })
  // The list's path is '' rather than '/': /characters, as the API document names it (both answer).
  return signedInRoutes(guard, '/characters', ['Characters'])
    .get(
      '',
      ({ user, request, set }) =>
        tagged(request, set, changes.listTag(user.id, characterIds(db, user.id)), () => ({
          characters: listCharacters(db, user.id, changes),
        })),
      {
        response: { 200: CharacterList, 304: NotModified },
        detail: { summary: "All of the account's characters", description: CONDITIONAL },
      },
    )
    .post(
      '',
      ({ user, body, set }) => {
        set.status = 201
        return createCharacter(db, clock, user.id, body)
      },
      {
        body: CharacterCreate,
        response: { 201: Character, ...errors(409) },
        detail: {
          summary: 'Create a character',
          description: `A name is required: \`givenName\` (alias \`firstName\`) or a legacy \`name\`, split at the first space. Ids, owner and share token are assigned by the server. 409 when the account already has ${MAX_CHARACTERS_PER_ACCOUNT} characters.`,
        },
      },
    )
    .get('/meta', () => characterMeta(), {
      response: { 200: CharacterMeta },
      detail: { summary: 'Picklists: classes, races, alignments, genders, servers and limits' },
    })
    .get(
      '/find',
      ({ user, query }) => {
        const characters = findCharacters(db, user.id, query, changes)
        return { count: characters.length, characters }
      },
      {
        query: FindQuery,
        response: { 200: FindResult },
        detail: {
          summary: "Find the account's characters by name and server",
          description: 'Any combination of criteria; all case-insensitive and exact. No criteria: every character.',
        },
      },
    )
    .guard({ params: IdParams })
    .get(
      '/:id',
      ({ user, params, request, set }) => {
        assertOwnsCharacter(db, user.id, params.id)
        return tagged(request, set, changes.characterTag(params.id), () => getCharacter(db, user.id, params.id))
      },
      {
        response: { 200: Character, 304: NotModified, ...errors(404) },
        detail: { summary: 'One character', description: CONDITIONAL },
      },
    )
    .patch('/:id', update, updateHook('PATCH'))
    .put('/:id', update, updateHook('PUT'))
    .post(
      '/:id/login',
      ({ user, params, body }) => {
        const field = body?.lastLoginAt !== undefined ? 'lastLoginAt' : 'last_login_at'
        return noteLogin(writer, user.id, params.id, body?.lastLoginAt ?? body?.last_login_at, field)
      },
      {
        body: LoginBody,
        response: { 200: Character, ...errors(404) },
        detail: {
          summary: 'Note a login',
          description:
            'Sets lastLoginAt to the given timestamp, or to now when the body is omitted. Answers the character.',
        },
      },
    )
    .delete(
      '/:id',
      ({ user, params }) => {
        deleteCharacter(writer, user.id, params.id)
        return { ok: true as const }
      },
      {
        response: { 200: OkBody, ...errors(404) },
        detail: { summary: 'Delete a character with its completions, builds and lives' },
      },
    )
    .post('/:id/share', ({ user, params }) => shareCharacter(writer, user.id, params.id), {
      response: { 200: Character, ...errors(404) },
      detail: {
        summary: 'Share the character under a new link',
        description: 'A new shareToken (the old /s/ link stops working) and shared true. Answers the character.',
      },
    })
    .delete('/:id/share', ({ user, params }) => unshareCharacter(writer, user.id, params.id), {
      response: { 200: Character, ...errors(404) },
      detail: {
        summary: 'Stop sharing the character',
        description: 'shared false: the /s/ link answers 404 until the character is shared again.',
      },
    })
}
