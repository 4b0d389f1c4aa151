// Preloaded by bun test (bunfig.toml): after every test, every answer the apps of the test gave
// must have matched the schema its route documents, so the OpenAPI document stays true to the
// traffic although the server does not check its answers at run time (src/http/responses.ts).
import { afterEach } from 'bun:test'
import { invalidResponses } from './helpers'

afterEach(() => {
  if (invalidResponses.length === 0) return
  const found = invalidResponses.splice(0)
  throw new Error(`answers that do not match their documented schema:\n${found.join('\n')}`)
})
