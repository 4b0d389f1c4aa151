// The arguments of a command: node:util parseArgs held to each command's flags and count of
// arguments, and every misuse said in one line (UsageError: exit 2).
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util'

/** Misuse of the command line: `run` prints the message on one line and exits 2. */
export class UsageError extends Error {}

/**
 * --help among a command's flags: thrown by `parse`, so that no command checks for it itself;
 * `run` prints that command's help and exits 0.
 */
export class HelpWanted {
  constructor(readonly topic: string) {}
}

export const valueFlag = { type: 'string' } as const
export const switchFlag = { type: 'boolean' } as const
export const databaseFlag = { database: valueFlag } as const
/** Every command takes --help, also as -h. */
const helpFlag = { help: { type: 'boolean', short: 'h' } } as const

/** How many positional arguments a command takes, and the line (after "COMMAND: ") for any other count. */
export interface Arity {
  min: number
  max: number
  usage: string
}
export const none = (usage = 'takes no arguments (see --help)'): Arity => ({ min: 0, max: 0, usage })
export const one = (usage: string): Arity => ({ min: 1, max: 1, usage })

/**
 * A command's arguments through node:util parseArgs (strict: an unknown flag, a flag without
 * its value and a stray argument are refused), each misuse as one line naming the flag.
 * `--name value` and `--name=value` both work; --help anywhere shows the command's help.
 */
export function parse<const O extends ParseArgsOptionsConfig>(
  command: string,
  args: string[],
  options: O,
  arity: Arity,
) {
  const parsed = strictParse(command, args, { ...options, ...helpFlag }, arity)
  const flags: Record<string, unknown> = parsed.values
  for (const [name, value] of Object.entries(flags)) {
    if (value === '') throw new UsageError(`${command}: --${name} needs a value`)
  }
  if (flags.help) throw new HelpWanted(command.split(' ')[0] as string)
  const { positionals } = parsed
  if (positionals.length < arity.min || positionals.length > arity.max) {
    throw new UsageError(`${command}: ${arity.usage}`)
  }
  return parsed
}

function strictParse<const O extends ParseArgsOptionsConfig>(
  command: string,
  args: string[],
  options: O,
  arity: Arity,
) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: arity.max > 0 })
  } catch (error) {
    throw new UsageError(`${command}: ${misuse(args, options, arity, error)}`)
  }
}

/**
 * What the strict parse refused, in words: the arguments again as tokens, without strict,
 * and the first one that breaks a rule (parseArgs's own message spans lines and varies).
 */
function misuse(args: string[], options: ParseArgsOptionsConfig, arity: Arity, error: unknown): string {
  const { tokens } = parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true })
  for (const token of tokens) {
    if (token.kind === 'positional' && arity.max === 0) return arity.usage
    if (token.kind !== 'option') continue
    const option = options[token.name]
    if (!option) return `unknown option ${token.rawName} (see --help)`
    if (option.type === 'boolean' && token.value !== undefined) return `${token.rawName} takes no value`
    if (token.value === undefined) return `${token.rawName} needs a value`
    // parseArgs will not take "-x" after a flag as its value: it is more likely a forgotten one.
    if (!token.inlineValue && token.value.startsWith('-')) {
      return `${token.rawName} needs a value; ${token.value} looks like a flag (write ${token.rawName}=${token.value} if it is the value)`
    }
  }
  // A refusal these rules do not foresee: parseArgs's own words, first line.
  return `${error instanceof Error ? error.message.split('\n')[0] : error} (see --help)`
}
