// POST /auth/login, GET /auth/me, POST /auth/logout, and the `auth` macro every other
// plugin route uses to require a bearer token.
import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { BadRequest } from '../../http/errors'
import { errors, OkBody } from '../../http/model'
import { LoginBody, LoginResponse, User } from './model'
import { authenticate, login, revokeToken, type Session } from './service'
import { LoginThrottle } from './throttle'

/**
 * `{ auth: true }` on a route: 401 without a valid token, else `user` and `session` in context.
 * The token is checked in `transform`, which runs before validation: a request without a valid
 * token is 401 whatever its body, query or path (`resolve` alone runs after validation, so a
 * bad field answered 400 first).
 */
export function authGuard({ db }: AppDeps) {
  const sessions = new WeakMap<Request, Session>()
  return new Elysia().macro({
    auth: {
      transform({ request }) {
        sessions.set(request, authenticate(db, request.headers.get('authorization')))
      },
      resolve({ request }) {
        const session = sessions.get(request) ?? authenticate(db, request.headers.get('authorization'))
        return { user: session.user, session }
      },
    },
  })
}

export function authModule(deps: AppDeps) {
  const { db, clock } = deps
  const throttle = new LoginThrottle(clock)
  return new Elysia({ prefix: '/api/plugin/auth' })
    .use(authGuard(deps))
    .post(
      '/login',
      ({ body }) => {
        const identifier = body.identifier ?? body.email ?? body.username ?? body.login
        if (identifier === undefined || identifier.trim() === '') {
          throw new BadRequest('One of "identifier", "email", "username" or "login" is required.')
        }
        return login(deps, throttle, identifier, body.password, body.label?.trim() || 'plugin')
      },
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
      ({ session }) => {
        revokeToken(db, clock, session.tokenId)
        return { ok: true as const }
      },
      {
        auth: true,
        response: { 200: OkBody },
        detail: { summary: 'Revoke the presented token (only that one)', tags: ['Authentication'] },
      },
    )
}
