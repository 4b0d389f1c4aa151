// POST /auth/login, GET /auth/me, POST /auth/logout, and the `auth` macro every other
// plugin route uses to require a bearer token.
import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { BadRequest } from '../../http/errors'
import { errors, OkBody } from '../../http/model'
import type { LoginGuard } from './guard'
import { LoginBody, LoginResponse, User } from './model'
import { authenticate, login, revokeToken, type Session } from './service'

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

/** `guard` is the app's one LoginGuard (createApp), shared with every other password login. */
export function authModule(deps: AppDeps, guard: LoginGuard) {
  const { db, clock } = deps
  return new Elysia({ prefix: '/api/plugin/auth' })
    .use(authGuard(deps))
    .post(
      '/login',
      ({ body, request, server }) => {
        const identifier = body.identifier ?? body.email ?? body.username ?? body.login
        if (identifier === undefined || identifier.trim() === '') {
          throw new BadRequest('One of "identifier", "email", "username" or "login" is required.')
        }
        const label = body.label?.trim() || 'plugin'
        return login(deps, guard, identifier, body.password, label, guard.clientAddress(request, server))
      },
      {
        body: LoginBody,
        response: { 200: LoginResponse, ...errors(401, 429, 503) },
        detail: {
          summary: 'Log in and get a bearer token',
          description:
            'No auth. The identifier is a username or e-mail (aliases `email`, `username`, `login`), at most 254 characters; the password at most 1024. Wrong username and wrong password answer the same 401. Too many failures for one account, or from one address, answer 429 with Retry-After; too many logins being checked at once answer 503 with Retry-After.',
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
