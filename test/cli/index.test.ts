// The dispatch (src/cli/index.ts): misuse exits 2 with one line, --help, --version.
import { describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import packageJson from '../../package.json'
import { run } from '../../src/cli'
import { variableDocs } from '../../src/config'
import { SCHEMA_VERSION } from '../../src/db/migrate'
import { cli, dbPath, err, io, out, useCli } from './cli'

useCli()

describe('misuse', () => {
  test.each([
    [['frobnicate'], 'unknown command "frobnicate"'],
    [['user', 'add', '--password', 'x'], 'unknown option --password'],
    [['user', 'add', '--username'], '--username needs a value'],
    [['user', 'passwd'], 'give the username or e-mail'],
    [['user', 'fly'], 'unknown subcommand "fly"'],
    [['backup'], 'give the path'],
    [['serve', '--port', 'abc'], 'PORT must be a whole number'],
    [['serve', 'extra'], 'takes no arguments'],
  ])('%p exits 2 with one line on stderr', async (argv, message) => {
    expect(await run(argv as string[], io())).toBe(2)
    expect(err).toHaveLength(1)
    expect(err[0]).toContain(message)
    expect(err[0]).not.toContain('\n')
  })

  test('a bad environment variable exits 2 with one line', async () => {
    const code = await run(['user', 'list'], { ...io(), env: { DATABASE_PATH: dbPath, LOG_LEVEL: 'chatty' } })
    expect(code).toBe(2)
    expect(err).toEqual(['quest-tracker: LOG_LEVEL must be one of debug, info, warn, error (got "chatty").'])
  })
})

describe('--help', () => {
  test.each([
    [['--help'], 'Usage: quest-tracker [command]'],
    [['help'], 'Usage: quest-tracker [command]'],
    [['serve', '--help'], 'Usage: quest-tracker serve'],
    [['user', '--help'], 'quest-tracker user add'],
    [['user', 'add', '--help'], 'quest-tracker user add'],
    [['user', 'remove', '--help'], 'quest-tracker user remove'],
    [['backup', '--help'], 'quest-tracker backup verify FILE'],
    [['backup', 'now', '--help'], 'quest-tracker backup now'],
    [['restore', '--help'], 'Usage: quest-tracker restore FILE'],
    [['maintenance', '--help'], 'quest-tracker maintenance prune'],
    [['maintenance', 'optimize', '--help'], 'quest-tracker maintenance optimize'],
    [['catalog', '--help'], 'Usage: quest-tracker catalog sync'],
    [['catalog', 'sync', '--help'], 'Usage: quest-tracker catalog sync'],
    [['scorecards', 'import', '--help'], 'Usage: quest-tracker scorecards import'],
    [['route', '--help'], 'quest-tracker route export ID'],
    [['route', 'import', '--help'], 'quest-tracker route import FILE'],
    [['healthcheck', '--help'], 'Usage: quest-tracker healthcheck'],
  ])('%p prints usage and exits 0 without touching the database', async (argv, text) => {
    expect(await run(argv as string[], io())).toBe(0)
    expect(out.join('\n')).toContain(text)
    expect(existsSync(dbPath)).toBe(false)
  })
})

describe('--version and a --help that stands alone', () => {
  test.each([['--version'], ['-V'], ['version']])('%p prints the version of package.json', async (flag) => {
    expect(await cli(flag)).toBe(0)
    expect(out).toEqual([`quest-tracker ${packageJson.version} (schema ${SCHEMA_VERSION})`])
  })

  test('--help names every command and every variable with its default, without sending you to the documents', async () => {
    const operations = await Bun.file(join(import.meta.dir, '..', '..', 'docs', 'operations.md')).text()
    const section = (title: string) => operations.split(`## ${title}\n`)[1]?.split('\n## ')[0] ?? ''
    const variables = [...section('Configuration').matchAll(/^\| `([A-Z_]+)` \| `([^`]+)`/gm)]
    const commands = [...section('Admin commands').matchAll(/^\| `([a-z]+(?: [a-z]+)?)/gm)].map((m) => m[1])
    expect(variables.length).toBeGreaterThanOrEqual(7)
    expect(commands.length).toBeGreaterThanOrEqual(10)
    expect(await cli('--help')).toBe(0)
    // A default list too long for a line goes on, an entry a line.
    const help = out.join('\n').replace(/,\n {28}/g, ', ')
    for (const [, name, fallback] of variables) {
      expect(help).toContain(`${name}=`)
      expect(help).toContain(fallback as string)
    }
    for (const command of commands) expect(help).toContain(`  ${command}`)
    expect(help).not.toContain('README')
    expect(help).not.toContain('operations.md')
  })

  test("--help's variables are the configuration schema's: name, default and meaning of each", async () => {
    expect(await cli('--help')).toBe(0)
    const help = out.join('\n')
    const section = help.split('Environment')[1]?.split('\n\n')[0] ?? ''
    const names = [...section.matchAll(/^ {2}([A-Z_]+)=/gm)].map((match) => match[1])
    expect(names).toEqual(variableDocs().map((variable) => variable.name))
    const unwrapped = section.replace(/\n {28}/g, ' ')
    for (const { name, fallback, description } of variableDocs()) {
      const shown = /\s/.test(fallback) ? `"${fallback}"` : fallback
      expect(unwrapped).toMatch(
        new RegExp(`^  ${name}=${RegExp.escape(shown)} +${RegExp.escape(description.replaceAll('`', ''))}$`, 'm'),
      )
    }
    expect(help.split('\n').every((line) => line.length <= 100)).toBe(true)
  })
})
