// POST /auth/login, GET /auth/me, POST /auth/logout, and the bearer guard every other plugin
// route uses to require a token.
import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { bodyLimit } from '../../http/body'
import { errors, OkBody } from '../../http/model'
import { credentialGuard, type Guard } from './guard'
import type { LoginGuard } from './loginGuard'
import { LoginBody, LoginResponse, MAX_SIGN_IN_BODY_BYTES, User } from './model'
import { authenticate, DAY_MS, identifierOf, login, revokeToken } from './service'

/** The plugin API's guard: `Authorization: Bearer <token>`. */
export function bearerGuard({ db, clock, config }: AppDeps): Guard {
  const idleMs = config.tokenIdleDays * DAY_MS
  return credentialGuard('token', ({ request }) => {
    const session = authenticate(db, clock, request.headers.get('authorization'), idleMs)
    return { user: session.user, credential: { kind: 'token', id: session.tokenId } }
  })
}

const tags = ['Authentication']

/**
 * `loginGuard` is the app's one LoginGuard (createApp), shared with every other password login.
 * Logging in needs no token; the guard then covers the routes after it.
 */
export function authModule(deps: AppDeps, guard: Guard, loginGuard: LoginGuard) {
  const { db, clock } = deps
  return new Elysia({ prefix: '/auth' })
    .use(guard)
    .use(bodyLimit)
    .post(
      '/login',
      ({ body, request, server }) => {
        const label = body.label?.trim() || 'plugin'
        const address = loginGuard.clientAddress(request, server)
        return login(deps, loginGuard, identifierOf(body), body.password, label, address)
      },
      {
        body: LoginBody,
        maxBodyBytes: MAX_SIGN_IN_BODY_BYTES,
        response: { 200: LoginResponse, ...errors(401, 429, 503) },
        detail: {
          summary: 'Log in and get a bearer token',
          description:
            'No auth. The identifier is a username or e-mail (aliases `email`, `username`, `login`), at most 254 characters; the password at most 1024. Wrong username and wrong password answer the same 401. Too many failures with one name, or from one address, answer 429 with Retry-After, and so do too many logins with one name or from one address being checked at once; too many logins being checked in all answer 503 with Retry-After.',
          security: [],
          tags,
        },
      },
    )
    .guard({ auth: true, detail: { tags } })
    .get('/me', ({ user }) => user, {
      response: { 200: User },
      detail: { summary: 'The account behind the token' },
    })
    .post(
      '/logout',
      ({ credential }) => {
        revokeToken(db, clock, credential.id)
        return { ok: true as const }
      },
      {
        response: { 200: OkBody },
        detail: { summary: 'Revoke the presented token (only that one)' },
      },
    )
}
