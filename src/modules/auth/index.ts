// POST /auth/login, GET /auth/me, POST /auth/logout, and the bearer guard every other plugin
// route uses to require a token.
import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import type { Api } from '../../http/api'
import { errors, OkBody } from '../../http/model'
import { credentialGuard, type Guard } from './guard'
import { LoginBody, LoginResponse, User } from './model'
import { authenticate, identifierOf, login, revokeToken } from './service'
import type { LoginThrottle } from './throttle'

/** The plugin API's guard: `Authorization: Bearer <token>`. */
export function bearerGuard({ db }: AppDeps): Guard {
  return credentialGuard(({ request }) => {
    const session = authenticate(db, request.headers.get('authorization'))
    return { user: session.user, credential: { kind: 'token', id: session.tokenId } }
  })
}

export function authModule(deps: AppDeps, api: Api, throttle: LoginThrottle) {
  const { db, clock } = deps
  return new Elysia({ prefix: `${api.prefix}/auth` })
    .use(api.guard)
    .post(
      '/login',
      ({ body }) => login(db, clock, throttle, identifierOf(body), body.password, body.label?.trim() || 'plugin'),
      {
        body: LoginBody,
        response: { 200: LoginResponse, ...errors(401, 429) },
        detail: {
          summary: 'Log in and get a bearer token',
          description:
            'No auth. The identifier is a username or e-mail (aliases `email`, `username`, `login`). Wrong username and wrong password answer the same 401. Too many failures for one identifier answer 429 with Retry-After.',
          security: [],
          tags: ['Authentication'],
        },
      },
    )
    .get('/me', ({ user }) => user, {
      auth: true,
      response: { 200: User },
      detail: { summary: 'The account behind the token', tags: ['Authentication'] },
    })
    .post(
      '/logout',
      ({ credential }) => {
        revokeToken(db, clock, credential.id)
        return { ok: true as const }
      },
      {
        auth: true,
        response: { 200: OkBody },
        detail: { summary: 'Revoke the presented token (only that one)', tags: ['Authentication'] },
      },
    )
}
