// Temporary folders of one test file, under one root removed after the file's last test, so a
// run leaves nothing behind in the temporary folder (it left about a hundred folders a run).
import { afterAll } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Call at the top of a test file; `next()` makes a new empty folder each time. */
export function scratchFolders(prefix: string): { root: string; next(): string } {
  const root = mkdtempSync(join(tmpdir(), prefix))
  afterAll(() => rmSync(root, { recursive: true, force: true }))
  let count = 0
  return {
    root,
    next() {
      const folder = join(root, String(++count))
      mkdirSync(folder)
      return folder
    },
  }
}
