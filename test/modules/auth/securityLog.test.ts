// Refused logins and lock-outs are logged at warn, with the account (or the name tried) and the
// address, for the operator and for tools such as fail2ban; a name cannot forge a log line.
import { expect, test } from 'bun:test'
import type { Logger } from '../../../src/logger'
import { refused, testApp } from '../../helpers'

function recordingLogger() {
  const warnings: string[] = []
  const ignore = () => {}
  const logger: Logger = { debug: ignore, info: ignore, warn: (message) => warnings.push(message), error: ignore }
  return { logger, warnings }
}

test('a failed login, then a lock-out, each log one warn line naming the account', async () => {
  const { logger, warnings } = recordingLogger()
  const t = testApp({}, { logger })
  await t.userWithToken('alice')
  for (let i = 0; i < 5; i++) {
    refused(await t.api.plugin.auth.login.post({ identifier: 'alice', password: 'wrong password' }), 401)
  }
  expect(warnings).toHaveLength(5)
  expect(warnings[0]).toBe('failed login: account "alice" from an unknown address')
  refused(await t.api.session.post({ identifier: 'ALICE', password: 'wrong again' }), 429)
  expect(warnings.at(-1)).toMatch(/^login refused: account "alice" is locked for \d+ s \(from an unknown address\)$/)
})

test('an unknown name is quoted and cut, so it cannot start a line of its own', async () => {
  const { logger, warnings } = recordingLogger()
  const t = testApp({}, { logger })
  const forged = `x\n2026-11-23 info  login ok for admin${'y'.repeat(150)}`
  refused(await t.api.plugin.auth.login.post({ identifier: forged, password: 'whatever' }), 401)
  expect(warnings).toHaveLength(1)
  expect(warnings[0]).not.toContain('\n')
  expect(warnings[0]).toContain('unknown name "x\\n2026-11-23 info  login ok for admin')
  expect((warnings[0] as string).length).toBeLessThan(160)
})
