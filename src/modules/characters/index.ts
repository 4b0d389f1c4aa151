// The character routes of the plugin API: create, list, meta, find, get, PATCH/PUT, login.
import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { errors, IdParams } from '../../http/model'
import { characterMeta } from '../../rules/picklists'
import { authGuard } from '../auth'
import { Character, CharacterInput, CharacterList, CharacterMeta, FindQuery, FindResult, LoginBody } from './model'
import { createCharacter, findCharacters, getCharacter, listCharacters, noteLogin, updateCharacter } from './service'

const tags = ['Characters']

export function charactersModule(deps: AppDeps) {
  const { db, clock } = deps
  const update = ({
    user,
    params,
    body,
  }: {
    user: { id: number }
    params: { id: number }
    body: typeof CharacterInput.static
  }) => updateCharacter(db, clock, user.id, params.id, body)
  const updateHook = (method: string) => ({
    auth: true as const,
    params: IdParams,
    body: CharacterInput,
    response: { 200: Character, ...errors(404) },
    detail: {
      summary: `Update a character (${method}; partial: omitted fields keep their value)`,
      description:
        'PUT behaves exactly as PATCH. `touchLastLogin` or `seen` true sets lastLoginAt to now unless an explicit lastLoginAt is sent. Answers the updated character.',
      tags,
    },
  })
  return new Elysia({ prefix: '/api/plugin/characters' })
    .use(authGuard(deps))
    .get('/', ({ user }) => ({ characters: listCharacters(db, user.id) }), {
      auth: true,
      response: { 200: CharacterList },
      detail: { summary: "All of the account's characters", tags },
    })
    .post(
      '/',
      ({ user, body, set }) => {
        set.status = 201
        return createCharacter(db, clock, user.id, body)
      },
      {
        auth: true,
        body: CharacterInput,
        response: { 201: Character },
        detail: {
          summary: 'Create a character',
          description:
            'A name is required: `givenName` (alias `firstName`) or a legacy `name`, split at the first space. Ids, owner and share token are assigned by the server.',
          tags,
        },
      },
    )
    .get('/meta', () => characterMeta(), {
      auth: true,
      response: { 200: CharacterMeta },
      detail: { summary: 'Picklists: classes, races, alignments, genders, servers and limits', tags },
    })
    .get(
      '/find',
      ({ user, query }) => {
        const characters = findCharacters(db, user.id, query)
        return { count: characters.length, characters }
      },
      {
        auth: true,
        query: FindQuery,
        response: { 200: FindResult },
        detail: {
          summary: "Find the account's characters by name and server",
          description: 'Any combination of criteria; all case-insensitive and exact. No criteria: every character.',
          tags,
        },
      },
    )
    .get('/:id', ({ user, params }) => getCharacter(db, user.id, params.id), {
      auth: true,
      params: IdParams,
      response: { 200: Character, ...errors(404) },
      detail: { summary: 'One character', tags },
    })
    .patch('/:id', update, updateHook('PATCH'))
    .put('/:id', update, updateHook('PUT'))
    .post(
      '/:id/login',
      ({ user, params, body }) => {
        const field = body?.lastLoginAt !== undefined ? 'lastLoginAt' : 'last_login_at'
        return noteLogin(db, clock, user.id, params.id, body?.lastLoginAt ?? body?.last_login_at, field)
      },
      {
        auth: true,
        params: IdParams,
        body: LoginBody,
        response: { 200: Character, ...errors(404) },
        detail: {
          summary: 'Note a login',
          description:
            'Sets lastLoginAt to the given timestamp, or to now when the body is omitted. Answers the character.',
          tags,
        },
      },
    )
}
