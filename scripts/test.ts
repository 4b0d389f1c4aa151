// `npm test`: the whole suite as two `bun test` processes at once. The website's browser tests
// (test/web) spend part of their time waiting for two browsers; the rest (about 1,900 tests on
// in-memory databases) keep a core busy meanwhile. (More processes than two only slow a 2-core
// machine: the run is bound by its processor.)
// The rest's output comes as it runs; the website's when it ends (so the two never interleave);
// then one total, the last "N pass" / "N fail" lines, which .ci/run reads.
// With arguments it is plain `bun test ARGS` (one file, a filter), output as it comes.
// Every test may take 30 s (the default 5 s fails a test that spawns the server several times on
// a loaded machine): passed here, since Bun 1.4.5 reads no test timeout from bunfig.toml.

import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { argv, execPath } from 'node:process'

const bun = execPath
const args = argv.slice(2)
const TIMEOUT = '--timeout=30000'

// The folder the compiled executables of this run go in (test/compiled.ts), removed when the run
// ends however it ends: a worker of the fast tier has no hook of its own that runs at its end.
// Any user may enter it: the start-up tests run the executable as `nobody`.
const binaries = mkdtempSync(join(tmpdir(), 'qt-test-'))
chmodSync(binaries, 0o755)
process.on('exit', () => rmSync(binaries, { recursive: true, force: true }))
process.on('SIGINT', () => process.exit(130))
// MIMALLOC_PURGE_DELAY=-1: Bun's allocator keeps the memory a test freed for the next one,
// instead of handing it back to the kernel at once and faulting it in again: the fast tier spent
// a quarter of its time in the kernel doing that (30 s of 120; 17 s with this). Each test
// process peaks about a fifth higher (0.9 GB instead of 0.75 for test/modules).
const testEnv = { ...process.env, QT_TEST_BINARIES: binaries, MIMALLOC_PURGE_DELAY: '-1' }

// `npm run test:fast` (the contributor's tier before a commit): everything but the browsers,
// its files spread over two worker processes by bun test's own `--parallel`. `--no-isolate`: each
// worker keeps one module registry across its files, as the whole suite's one process does, so
// the modules are loaded and compiled twice, not once per file (97 s → 59 s on 2 cores: the files
// spent more time starting than testing). `--timings` starts the slowest files first, so the
// two workers end together; test/timings.json lists how long each file took.
if (args[0] === '--fast') {
  const fast = Bun.spawn(
    [
      bun,
      'test',
      TIMEOUT,
      '--parallel=2',
      '--no-isolate',
      '--timings=test/timings.json',
      '--path-ignore-patterns',
      'test/web/**',
      ...args.slice(1),
    ],
    { env: { ...testEnv, TEST_BROWSERS: 'none' }, stdio: ['inherit', 'inherit', 'inherit'] },
  )
  process.exit(await fast.exited)
}

if (args.length > 0) {
  const one = Bun.spawn([bun, 'test', TIMEOUT, ...args], { env: testEnv, stdio: ['inherit', 'inherit', 'inherit'] })
  process.exit(await one.exited)
}

/** One half's pass, fail and skip counts, from bun test's summary lines. */
function counts(output: string): Record<'pass' | 'fail' | 'skip', number> {
  const read = (word: string) => Number(new RegExp(`^ *(\\d+) ${word}$`, 'm').exec(output)?.[1] ?? 0)
  return { pass: read('pass'), fail: read('fail'), skip: read('skip') }
}

const started = performance.now()
// The browsers start only in the website's process (test/web/driver.ts reads TEST_BROWSERS).
const web = Bun.spawn([bun, 'test', TIMEOUT, './test/web/'], { env: testEnv, stdout: 'pipe', stderr: 'pipe' })
const rest = Bun.spawn([bun, 'test', TIMEOUT, '--path-ignore-patterns', 'test/web/**'], {
  env: { ...testEnv, TEST_BROWSERS: 'none' },
  stdout: 'pipe',
  stderr: 'pipe',
})

/** Copies a stream to ours as it comes, and keeps it. */
async function relay(stream: ReadableStream<Uint8Array>, to: NodeJS.WriteStream): Promise<string> {
  let kept = ''
  const decoder = new TextDecoder()
  for await (const chunk of stream) {
    to.write(chunk)
    kept += decoder.decode(chunk, { stream: true })
  }
  return kept
}

const [restOut, restErr, restCode] = await Promise.all([
  relay(rest.stdout, process.stdout),
  relay(rest.stderr, process.stderr),
  rest.exited,
])
const [webOut, webErr, webCode] = await Promise.all([
  new Response(web.stdout).text(),
  new Response(web.stderr).text(),
  web.exited,
])
process.stdout.write(webOut)
process.stderr.write(webErr)

const a = counts(restErr + restOut)
const b = counts(webErr + webOut)
const seconds = ((performance.now() - started) / 1000).toFixed(1)
console.error(`\nthe whole suite (the website's browser tests and the rest at once), ${seconds} s:`)
console.error(` ${a.pass + b.pass} pass`)
if (a.skip + b.skip > 0) console.error(` ${a.skip + b.skip} skip`)
console.error(` ${a.fail + b.fail} fail`)
process.exit(restCode !== 0 ? restCode : webCode)
