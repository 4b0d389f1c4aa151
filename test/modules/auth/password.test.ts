// The one place the real argon2 cost runs: every other test uses the cheap hasher from helpers.
import { describe, expect, test } from 'bun:test'
import { PRODUCTION_COST, productionHasher } from '../../../src/modules/auth/password'
import { cheapHasher } from '../../helpers'

describe('password hashing', () => {
  test('production hashes are argon2id v19 at 64 MiB and 2 passes', async () => {
    expect(PRODUCTION_COST).toEqual({ memoryCost: 65_536, timeCost: 2 })
    const hash = await productionHasher.hash('correct horse battery')
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=65536,t=2,p=1\$/)
    expect(await productionHasher.verify('correct horse battery', hash)).toBe(true)
    expect(await productionHasher.verify('wrong horse battery', hash)).toBe(false)
  })

  test('the cost is read from the stored hash, so either hasher verifies the other', async () => {
    const cheap = await cheapHasher.hash('correct horse battery')
    expect(cheap).toMatch(/^\$argon2id\$v=19\$m=8,t=1,p=1\$/)
    expect(await productionHasher.verify('correct horse battery', cheap)).toBe(true)
  })
})
