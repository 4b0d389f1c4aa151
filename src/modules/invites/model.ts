// Request and response shapes of the invite preview and the sign-up with an invite.
import { t } from 'elysia'
import { Timestamp } from '../../http/model'
import { MAX_IDENTIFIER_LENGTH, MAX_PASSWORD_LENGTH, User } from '../auth/model'

/** Longer than any code (`qti_` and 24 characters): a longer one is simply not live (404). */
const code = t.String({ maxLength: 200, description: 'The invite code: the last part of its `/join/<code>` link.' })

export const InviteParams = t.Object({ code })

export const InvitePreview = t.Object({
  invite: t.Object({
    kind: t.Union([t.Literal('account'), t.Literal('group')], {
      description: "`account`: the operator's invite to make an account; `group`: a group owner's invite.",
    }),
    group: t.Nullable(t.Object({ name: t.String() }), { description: "The group's name; null for `account`." }),
    expiresAt: Timestamp({ description: 'When the code stops working.' }),
    signup: t.Boolean({ description: 'Whether a newcomer can make an account with it (SIGNUP_INVITES).' }),
  }),
})

export const SignUpBody = t.Object({
  code,
  username: t.String({ maxLength: 64, description: 'Required: the name other players see; no spaces or "@".' }),
  email: t.Optional(
    t.String({ maxLength: MAX_IDENTIFIER_LENGTH, description: 'Optional: another name to sign in with.' }),
  ),
  password: t.String({ maxLength: MAX_PASSWORD_LENGTH, description: '8 to 1024 characters.' }),
})

export const SignedUp = t.Object({
  user: User,
  group: t.Nullable(t.Object({ id: t.Integer(), name: t.String() }), {
    description: "The group a group's invite added the account to; null for the operator's invite.",
  }),
})
