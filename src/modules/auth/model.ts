// Request and response shapes of the account operations.
import { t } from 'elysia'

export const User = t.Object(
  {
    id: t.Integer(),
    email: t.Nullable(t.String({ description: 'Private to the account holder; null for username-only accounts.' })),
    username: t.Nullable(t.String({ description: 'Shown on shared routes.' })),
    displayName: t.String({ description: 'The username, or the fixed word "Player" when there is none.' }),
  },
  { $id: 'User' },
)

export const LoginBody = t.Object({
  identifier: t.Optional(t.String({ description: 'Username or e-mail (case-insensitive).' })),
  email: t.Optional(t.String({ description: 'Alias of identifier.' })),
  username: t.Optional(t.String({ description: 'Alias of identifier.' })),
  login: t.Optional(t.String({ description: 'Alias of identifier.' })),
  password: t.String(),
  label: t.Optional(t.String({ maxLength: 100, description: 'A name for this token; default "plugin".' })),
})

export const LoginResponse = t.Object({
  token: t.String({ description: 'The bearer token. Shown only this once.' }),
  tokenId: t.Integer(),
  label: t.String(),
  user: User,
})
