// One guard shape for both ways in: the plugin's bearer tokens and the website's session cookie.
// `{ auth: true }` on a route, or on a module's `.guard()`, answers 401 without a valid
// credential, else puts `user` and `credential` in the context. Modules take the guard as a
// value (see src/http/api.ts), so one route definition serves both APIs.
import { type Context, Elysia } from 'elysia'
import { hookFunctions, type RouteHooks } from '../../http/routeRecords'
import type { PublicUser } from './service'

/** Who is calling, and with which token or session (by its row id, for revoking it). */
export interface Identity {
  user: PublicUser
  credential: { kind: 'token' | 'session'; id: number }
}

/** Resolves a request to its identity, or throws 401; may set headers (a refreshed cookie). */
export type Identify = (context: Pick<Context, 'request' | 'set'>) => Identity

/** Checks a request's credential (401 without a valid one), once per request whoever asks first. */
type CredentialCheck = (context: Pick<Context, 'request' | 'set'>) => void

/** The check of every guard, to be found among a route's hooks (credentialCheckOf). */
const credentialChecks = new WeakSet<CredentialCheck>()

/**
 * A named plugin, one per kind of credential (`seed`): Elysia then knows every `.use()` of it
 * is the same guard, and each API has exactly one, whose `identify` runs once per request.
 *
 * The credential is checked before the body is read (the body reader runs the route's check
 * first: credentialCheckOf, src/http/body.ts), else in `transform`, which runs before validation:
 * a request without a valid one is 401 whatever its body, query or path, and a stranger's body
 * is not read at all (`resolve` alone runs after validation, so a bad field would answer 400 first).
 */
export function credentialGuard(seed: Identity['credential']['kind'], identify: Identify) {
  // Kept on the Request itself, under a key of this guard's: cheaper than a WeakMap per request.
  const IDENTITY = Symbol(`${seed} identity`)
  type Identified = Request & { [IDENTITY]?: Identity }
  // The hooks name the parts of the context they read (src/http/routeRecords.ts); not `server`
  // either: naming it makes Elysia define it on every request's context (TrustedProxies has it).
  const check: CredentialCheck = ({ request, set }) => {
    const held = request as Identified
    if (held[IDENTITY] === undefined) held[IDENTITY] = identify({ request, set })
  }
  credentialChecks.add(check)
  return new Elysia({ name: 'auth', seed }).macro({
    auth: {
      transform: check,
      resolve({ request, set }) {
        const identity = (request as Identified)[IDENTITY] ?? identify({ request, set })
        return { user: identity.user, credential: identity.credential }
      },
    },
  })
}

export type Guard = ReturnType<typeof credentialGuard>

/**
 * The credential check of a route with `auth`, found among its `transform` hooks (as Elysia
 * lists them on `app.routes`), so the body reader can run it before reading: see bodyReader (src/http/body.ts).
 */
export function credentialCheckOf(hooks: RouteHooks): CredentialCheck | undefined {
  return hookFunctions(hooks, 'transform').find((fn): fn is CredentialCheck =>
    credentialChecks.has(fn as CredentialCheck),
  )
}

/**
 * A module's routes under `path`, each answering only a caller signed in through `guard` (`auth`,
 * in `transform`, before validation) and listed under `tags`: what every route would otherwise
 * repeat, said once. Add `.guard({ params: IdParams })` before the routes that take an id.
 */
export function signedInRoutes<const Path extends string>(guard: Guard, path: Path, tags: string[]) {
  return new Elysia({ prefix: path }).use(guard).guard({ auth: true, detail: { tags } })
}
