// POST/GET/DELETE /api/session (the website's sign-in, with the plugin login's checks and
// throttle) and the cookie guard every website route uses.
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import type { TrustedProxies } from '../../http/address'
import { bodyLimit } from '../../http/body'
import { errors, OkBody } from '../../http/model'
import { credentialGuard, type Guard } from '../auth/guard'
import type { LoginGuard } from '../auth/loginGuard'
import { LoginBody, MAX_SIGN_IN_BODY_BYTES, User } from '../auth/model'
import { identifierOf, toPublicUser, verifyLogin } from '../auth/service'
import {
  createSession,
  readCookie,
  revokeSession,
  SESSION_COOKIE,
  sessionCookie,
  sessionFromToken,
  signedOut,
} from './service'
import type { SignOuts } from './signOuts'

/** The website's guard: the session cookie (bearer tokens are not accepted here). */
export function cookieGuard({ db, clock }: AppDeps, proxies: TrustedProxies): Guard {
  return credentialGuard('session', ({ request, set }) => {
    const token = readCookie(request.headers.get('cookie'), SESSION_COOKIE)
    const session = sessionFromToken(db, clock, token)
    if (session.renewed && token) set.headers['set-cookie'] = sessionCookie(token, proxies.isHttps(request))
    return { user: session.user, credential: { kind: 'session', id: session.id } }
  })
}

const SessionBody = t.Omit(LoginBody, ['label'])
const SessionUser = t.Object({ user: User })
const tags = ['Website']

/**
 * Signing in needs no session; the guard then covers the routes after it. `proxies` says whether
 * a request came over HTTPS (the cookie is then Secure).
 */
export function sessionModule(
  { db, clock }: AppDeps,
  guard: Guard,
  loginGuard: LoginGuard,
  signOuts: SignOuts,
  proxies: TrustedProxies,
) {
  return new Elysia({ prefix: '/session' })
    .use(guard)
    .use(bodyLimit)
    .post(
      '/',
      async ({ body, request, server, set }) => {
        const address = loginGuard.clientAddress(request, server)
        const user = await verifyLogin(db, loginGuard, identifierOf(body), body.password, address)
        set.headers['set-cookie'] = sessionCookie(createSession(db, clock, user.id), proxies.isHttps(request, server))
        return { user: toPublicUser(user) }
      },
      {
        body: SessionBody,
        maxBodyBytes: MAX_SIGN_IN_BODY_BYTES,
        response: { 200: SessionUser, ...errors(401, 429, 503) },
        detail: { summary: 'Sign in to the website (sets the session cookie)', tags },
      },
    )
    .guard({ auth: true, detail: { tags } })
    .get('/', ({ user }) => ({ user }), {
      response: { 200: SessionUser },
      detail: { summary: 'The signed-in account' },
    })
    .delete(
      '/',
      ({ credential, request, server, set }) => {
        revokeSession(db, clock, credential.id)
        signOuts.sessionEnded(credential.id)
        return signedOut(proxies.isHttps(request, server), set)
      },
      { response: { 200: OkBody }, detail: { summary: 'Sign out (ends this session)' } },
    )
}
