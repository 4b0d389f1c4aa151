// A one-line-per-event logger with a level threshold (LOG_LEVEL), as text or as JSON lines
// (LOG_FORMAT). Warnings and errors go to stderr, the rest to stdout.
import type { LogFormat, LogLevel } from './config'

/** Facts of an event for machines (JSON lines); the message says the same for people. */
export type LogFields = Record<string, string | number | boolean | null>

export interface Logger {
  debug(message: string, fields?: LogFields): void
  info(message: string, fields?: LogFields): void
  /** Security events too (failed logins, lock-outs), so that they stand out at LOG_LEVEL=warn. */
  warn(message: string, fields?: LogFields): void
  error(message: string, fields?: LogFields): void
}

export interface LoggerOptions {
  format?: LogFormat
  /** Where a finished line goes; the default writes warn and error to stderr, the rest to stdout. */
  write?: (line: string, level: LogLevel) => void
}

const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 }

export function createLogger(level: LogLevel, { format = 'text', write = defaultWrite }: LoggerOptions = {}): Logger {
  const at = (lineLevel: LogLevel) => (message: string, fields?: LogFields) => {
    if (ORDER[lineLevel] < ORDER[level]) return
    const time = new Date().toISOString()
    // JSON.stringify keeps a multi-line message (a stack trace) on one line.
    const line =
      format === 'json'
        ? JSON.stringify({ time, level: lineLevel, msg: message, ...fields })
        : `${time} ${lineLevel.padEnd(5)} ${message}`
    write(line, lineLevel)
  }
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
}

function defaultWrite(line: string, level: LogLevel): void {
  if (level === 'error' || level === 'warn') console.error(line)
  else console.log(line)
}

/** For tests and tools that want quiet. */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} }
