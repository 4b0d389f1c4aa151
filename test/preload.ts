// Before any test file loads: the app imports the built website (src/web/dist/assets.ts), which
// `npm test` builds first; a bare `bun test` on a fresh checkout builds it here instead.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { buildWeb } from '../scripts/buildWeb'

if (!existsSync(join(import.meta.dir, '..', 'src', 'web', 'dist', 'assets.ts'))) await buildWeb()
