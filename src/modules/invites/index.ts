// The invite routes of the website's API, for a visitor who may have no account yet: what an
// invite is (GET /invites/{code}), and making an account with it (POST /signup), which signs the
// new account in as sign-in does. Joining a group with an account one has is the group routes'.

import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import type { TrustedProxies } from '../../http/address'
import { bodyLimit } from '../../http/body'
import { errors } from '../../http/model'
import type { LoginGuard } from '../auth/loginGuard'
import { MAX_SIGN_IN_BODY_BYTES } from '../auth/model'
import { toPublicUser } from '../auth/service'
import type { GroupFeed } from '../groups/feed'
import { createSession, sessionCookie } from '../session/service'
import { MAX_SIGNUPS_PER_INVITER_PER_DAY } from './limits'
import { InviteParams, InvitePreview, SignedUp, SignUpBody } from './model'
import { previewInvite, signUp } from './signup'

const tags = ['Website']

export function invitesModule(deps: AppDeps, loginGuard: LoginGuard, proxies: TrustedProxies, groups: GroupFeed) {
  const { db, clock } = deps
  return new Elysia()
    .use(bodyLimit)
    .get('/invites/:code', ({ params }) => ({ invite: previewInvite(deps, params.code) }), {
      params: InviteParams,
      response: { 200: InvitePreview, ...errors(404) },
      detail: {
        summary: 'What an invite is: to make an account or to join a group (its name), until when',
        description: 'The same 404 for a code that was used, expired or never existed.',
        tags,
      },
    })
    .post(
      '/signup',
      async ({ body, request, server, set }) => {
        const address = loginGuard.clientAddress(request, server)
        const { user, group } = await signUp(deps, loginGuard, body, address)
        set.headers['set-cookie'] = sessionCookie(createSession(db, clock, user.id), proxies.isHttps(request, server))
        set.status = 201
        // The group's open pages show the newcomer.
        if (group) groups.publish(group.id, 'members')
        return { user: toPublicUser(user), group }
      },
      {
        body: SignUpBody,
        // Read without a session, like a sign-in's: the same small limit.
        maxBodyBytes: MAX_SIGN_IN_BODY_BYTES,
        response: { 201: SignedUp, ...errors(400, 403, 404, 409, 429, 503) },
        detail: {
          summary: 'Make an account with an invite and sign in (sets the session cookie)',
          description: `403 while SIGNUP_INVITES is off. A group's invite also makes the account a member of the group. The code works once: a refused sign-up leaves it unused. 429 with Retry-After when the address made too many attempts, or when the account that made the invite has brought in ${MAX_SIGNUPS_PER_INVITER_PER_DAY} accounts in the last 24 hours (the operator's invites are not counted).`,
          tags,
        },
      },
    )
}
