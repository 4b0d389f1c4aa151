// Preloaded by bun test (bunfig.toml): after every test, every answer the apps of the test gave
// must have matched the schema its route documents, so the OpenAPI document stays true to the
// traffic although the server does not check its answers at run time (src/http/responses.ts);
// and every request and answer must conform to the OpenAPI document itself (test/helpers.ts).
import { afterAll, afterEach } from 'bun:test'
import { removeCompiledBinary } from './compiled'
import { documentViolations, invalidResponses } from './helpers'
import { closeSharedBrowsers, warmSharedBrowsers } from './web/driver'

// After the last test of the run: the executable that test/compiled.ts built for several files,
// and the browsers the website's tests share (test/web/driver.ts).
afterAll(removeCompiledBinary)
afterAll(closeSharedBrowsers)

// The browsers start now, while the tests before the website's run (driver.ts).
warmSharedBrowsers()

afterEach(() => {
  const invalid = invalidResponses.splice(0)
  const violations = documentViolations.splice(0)
  const found = [
    ...(invalid.length ? [`answers that do not match their documented schema:\n${invalid.join('\n')}`] : []),
    ...(violations.length ? [`traffic that departs from the OpenAPI document:\n${violations.join('\n')}`] : []),
  ]
  if (found.length) throw new Error(found.join('\n'))
})
