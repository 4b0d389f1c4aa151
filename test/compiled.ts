// The compiled executable (`bun build --compile`, as `npm run build` makes it), built once per
// test run into a temporary folder any user may read and run. The binary test runs it, and the
// start-up tests run it as an unprivileged user, who cannot read the checkout when it sits in a
// private folder (a root user's home, a CI work folder made by `mktemp -d`: mode 0700).
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const root = join(import.meta.dir, '..')
let built: Promise<string> | undefined
let folder: string | undefined
/** The folder scripts/test.ts made for the run's binaries, if it started this run. */
const sharedFolder = process.env.QT_TEST_BINARIES

export function compiledBinary(): Promise<string> {
  built ??= (async () => {
    // Under `npm test` and the fast tier, a folder scripts/test.ts removes when the run ends: a
    // worker of the fast tier (`--parallel --no-isolate`) runs many files and no hook of ours
    // runs when it is done. Otherwise a folder of this process, removed after its last test.
    const dir = mkdtempSync(join(sharedFolder ?? tmpdir(), 'qt-bin-'))
    if (!sharedFolder) folder = dir
    chmodSync(dir, 0o755)
    const binary = join(dir, 'quest-tracker')
    // The same command as `npm run build`, into the temporary folder (the scheduled backup's
    // thread is an entry point of its own: src/maintenance/backupWorker.ts).
    const build = Bun.spawn(
      [
        process.execPath,
        'build',
        '--compile',
        '--target=bun',
        'src/main.ts',
        'src/maintenance/backupWorker.ts',
        '--outfile',
        binary,
      ],
      { cwd: root, stdout: 'pipe', stderr: 'pipe' },
    )
    if ((await build.exited) !== 0) throw new Error(`build failed: ${await new Response(build.stderr).text()}`)
    return binary
  })()
  return built
}

/** Removes the binary's folder; test/setup.ts calls it after the last test. */
export function removeCompiledBinary(): void {
  if (folder) rmSync(folder, { recursive: true, force: true })
}

/** The uid and gid an unprivileged user runs as in these tests: `nobody`. */
export const NOBODY = 65534

/** The command prefix that runs a program as `nobody` (root only; anyone else runs as themselves). */
export const AS_NOBODY = ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups']

/**
 * Why `nobody` cannot run `binary` on files in `folder`, or null when it can: the folder the
 * temporary files go in may itself sit in a private one (TMPDIR inside a 0700 folder).
 */
export function whyNobodyCannotRun(binary: string, folder: string): string | null {
  try {
    const run = Bun.spawnSync([...AS_NOBODY, binary, '--version'], { stdout: 'pipe', stderr: 'pipe' })
    if (run.exitCode !== 0) {
      return `user nobody cannot run ${binary} (${run.stderr.toString().trim() || `exit ${run.exitCode}`})`
    }
    const reach = Bun.spawnSync([...AS_NOBODY, 'test', '-r', folder, '-a', '-x', folder])
    return reach.exitCode === 0 ? null : `user nobody cannot reach ${folder} (a folder above it is private)`
  } catch (error) {
    return `setpriv is not available (${error instanceof Error ? error.message : String(error)})`
  }
}
