// The website's account page: change the password (asks for the current one), list and revoke
// the plugin tokens, sign out everywhere. Session-cookie only: a stolen plugin token must not
// be able to change the password or revoke the other tokens.
import { t } from 'elysia'
import type { AppDeps } from '../../deps'
import type { TrustedProxies } from '../../http/address'
import { errors, IdParams, OkBody } from '../../http/model'
import type { Guard } from '../auth/guard'
import { signedInRoutes } from '../auth/guard'
import type { LoginGuard } from '../auth/loginGuard'
import { MAX_PASSWORD_LENGTH } from '../auth/model'
import { listTokens, revokeEverything, revokeOwnToken, verifyLogin } from '../auth/service'
import { createSession, sessionCookie, signedOut } from '../session/service'
import type { SignOuts } from '../session/signOuts'
import { getSettings, putSettings, setPassword } from './service'

const PasswordChange = t.Object({
  currentPassword: t.String({ maxLength: MAX_PASSWORD_LENGTH }),
  newPassword: t.String({ maxLength: MAX_PASSWORD_LENGTH }),
})

const Settings = t.Object({
  shareQuestTimes: t.Boolean({
    description:
      "Whether this account's runs count in the server's quest times (medians every player sees with the catalog). Only those aggregates ever leave the account.",
  }),
})

const TokenList = t.Object({
  tokens: t.Array(
    t.Object({ id: t.Integer(), label: t.String(), createdAt: t.String(), lastUsedAt: t.Nullable(t.String()) }),
  ),
})

export function accountModule(
  deps: AppDeps,
  guard: Guard,
  loginGuard: LoginGuard,
  signOuts: SignOuts,
  proxies: TrustedProxies,
) {
  const { db, clock } = deps
  return signedInRoutes(guard, '/account', ['Website'])
    .put(
      '/password',
      async ({ user, body, request, server, set }) => {
        // The current password goes through every login limit, like a sign-in.
        const identifier = user.username ?? user.email ?? ''
        await verifyLogin(db, loginGuard, identifier, body.currentPassword, loginGuard.clientAddress(request, server))
        await setPassword(deps, identifier, body.newPassword)
        signOuts.accountSignedOut(user.id)
        // Every token and session ended with the old password; this browser stays signed in.
        set.headers['set-cookie'] = sessionCookie(createSession(db, clock, user.id), proxies.isHttps(request, server))
        return { ok: true as const }
      },
      {
        body: PasswordChange,
        response: { 200: OkBody, ...errors(400, 401, 429, 503) },
        detail: { summary: 'Change the password; every plugin token and other session ends' },
      },
    )
    .get('/settings', ({ user }) => getSettings(db, user.id), {
      response: { 200: Settings },
      detail: { summary: "The account's settings" },
    })
    .put('/settings', ({ user, body }) => putSettings(db, user.id, body), {
      body: Settings,
      response: { 200: Settings },
      detail: {
        summary: "Change the account's settings",
        description:
          "`shareQuestTimes` false takes the account's runs out of the server's quest times at their next refresh (within seconds); true puts them back.",
      },
    })
    .get('/tokens', ({ user }) => ({ tokens: listTokens(db, user.id) }), {
      response: { 200: TokenList },
      detail: { summary: "The account's live plugin tokens (label, created, last used)" },
    })
    .delete(
      '/tokens/:id',
      ({ user, params }) => {
        revokeOwnToken(db, clock, user.id, params.id)
        return { ok: true as const }
      },
      {
        params: IdParams,
        response: { 200: OkBody, ...errors(404) },
        detail: { summary: 'Revoke one plugin token' },
      },
    )
    .delete(
      '/sessions',
      ({ user, request, server, set }) => {
        revokeEverything(db, clock, user.id)
        signOuts.accountSignedOut(user.id)
        return signedOut(proxies.isHttps(request, server), set)
      },
      {
        response: { 200: OkBody },
        detail: { summary: 'Sign out everywhere: every session and plugin token of the account ends' },
      },
    )
}
