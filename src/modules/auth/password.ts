// Password hashing as a dependency (AppDeps.passwordHasher): the server and the CLI use argon2id
// at the production cost below; tests pass a cheap cost, since a suite that logs in hundreds of
// times spent minutes in argon2 alone.

export interface PasswordHasher {
  hash(password: string): Promise<string>
  verify(password: string, hash: string): Promise<boolean>
}

/** argon2id cost: memory in KiB, and passes over it. */
export interface Argon2Cost {
  memoryCost: number
  timeCost: number
}

/**
 * 64 MiB, 2 passes (Bun's own default, written out so an upgrade cannot lower it silently):
 * above OWASP's argon2id minimum (19 MiB, 2 passes), about a quarter of a second per login
 * on a small home server.
 */
export const PRODUCTION_COST: Argon2Cost = Object.freeze({ memoryCost: 65_536, timeCost: 2 })

export function argon2idHasher(cost: Argon2Cost): PasswordHasher {
  return {
    hash: (password) => Bun.password.hash(password, { algorithm: 'argon2id', ...cost }),
    // The cost is read back from the stored hash, so hashes made at another cost still verify.
    verify: (password, hash) => Bun.password.verify(password, hash),
  }
}

export const productionHasher: PasswordHasher = argon2idHasher(PRODUCTION_COST)
