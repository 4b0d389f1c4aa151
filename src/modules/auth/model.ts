// Request and response shapes of the account operations.
import { t } from 'elysia'
import { documentOnly, oneOfRequired } from '../../http/model'

export const User = t.Object(
  {
    id: t.Integer(),
    email: t.Nullable(t.String({ description: 'Private to the account holder; null for username-only accounts.' })),
    username: t.Nullable(t.String({ description: 'Shown on shared routes.' })),
    displayName: t.String({ description: 'The username, or the fixed word "Player" when there is none.' }),
  },
  { $id: 'User' },
)

/** The longest e-mail address there is (RFC 5321); usernames are shorter still (64). */
export const MAX_IDENTIFIER_LENGTH = 254
export const MAX_PASSWORD_LENGTH = 1024

/**
 * The body of a password login (plugin login, website sign-in), the only bodies a stranger may
 * send: every field at its longest with every character escaped (\uXXXX) takes under 15 KiB.
 */
export const MAX_SIGN_IN_BODY_BYTES = 64 * 1024

// Every field is bounded: a login with a megabyte-long name used to be kept whole in memory.
const identifier = (description: string) => t.String({ maxLength: MAX_IDENTIFIER_LENGTH, description })

// One of the identifier fields is required; service.ts says so with a sentence naming them all.
export const LoginBody = t.Object(
  {
    identifier: t.Optional(identifier('Username or e-mail (case-insensitive).')),
    email: t.Optional(identifier('Alias of identifier.')),
    username: t.Optional(identifier('Alias of identifier.')),
    login: t.Optional(identifier('Alias of identifier.')),
    password: t.String({ maxLength: MAX_PASSWORD_LENGTH }),
    label: t.Optional(t.String({ maxLength: 100, description: 'A name for this token; default "plugin".' })),
  },
  {
    description: 'The identifier is required, as `identifier` or its alias `email`, `username` or `login`.',
    ...documentOnly({ anyOf: oneOfRequired('identifier', 'email', 'username', 'login') }),
  },
)

export const LoginResponse = t.Object({
  token: t.String({ description: 'The bearer token. Shown only this once.' }),
  tokenId: t.Integer(),
  label: t.String(),
  user: User,
})
