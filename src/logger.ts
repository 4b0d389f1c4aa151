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
  /**
   * Whether the lines carry their fields (LOG_FORMAT=json): a line logged on every request
   * builds no fields object for a text log, which would never write it.
   */
  readonly json?: boolean
}

export interface LoggerOptions {
  format?: LogFormat
  /** Where a finished line goes; the default writes warn and error to stderr, the rest to stdout. */
  write?: (line: string, level: LogLevel) => void
}

const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 }

export function createLogger(level: LogLevel, { format = 'text', write = defaultWrite }: LoggerOptions = {}): Logger {
  // A busy server logs many lines in one millisecond: the time is formatted once for them all.
  let lastMs = Number.NaN
  let lastTime = ''
  const timeNow = () => {
    const ms = Date.now()
    if (ms !== lastMs) {
      lastMs = ms
      lastTime = new Date(ms).toISOString()
    }
    return lastTime
  }
  const at = (lineLevel: LogLevel) => {
    const label = lineLevel.padEnd(5)
    return (message: string, fields?: LogFields) => {
      if (ORDER[lineLevel] < ORDER[level]) return
      const time = timeNow()
      // JSON.stringify keeps a multi-line message (a stack trace) on one line.
      const line =
        format === 'json'
          ? JSON.stringify({ time, level: lineLevel, msg: message, ...fields })
          : `${time} ${label} ${message}`
      write(line, lineLevel)
    }
  }
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), json: format === 'json' }
}

function defaultWrite(line: string, level: LogLevel): void {
  if (level === 'error' || level === 'warn') console.error(line)
  else console.log(line)
}

/** Where the lines of the process go: standard output and standard error, as whole texts. */
export interface Streams {
  out(text: string): void
  err(text: string): void
}

/**
 * How long a line waits to be written with the lines after it. A busy server logs a line per
 * request: written at most every LOG_FLUSH_MS, hundreds of them go in one system call (once per
 * turn of the event loop, a 304 spent a sixth of its time writing its line).
 */
export const LOG_FLUSH_MS = 10

/**
 * Standard output and error written at most every `flushAfterMs` instead of once per line.
 * Lines keep their order across the two streams (consecutive lines of one stream are joined).
 * `flush()` writes what is waiting at once; the process calls it before it exits.
 */
export function batchedLines(streams: Streams, { flushAfterMs = LOG_FLUSH_MS }: { flushAfterMs?: number } = {}) {
  // The lines waiting, and which of them go to standard error (most often none: one join).
  let lines: string[] = []
  let toErr: boolean[] = []
  let errCount = 0
  const flush = () => {
    const batch = lines
    const err = toErr
    const anyErr = errCount > 0
    lines = []
    toErr = []
    errCount = 0
    if (batch.length === 0) return
    if (!anyErr) {
      streams.out(batch.join('\n'))
      return
    }
    let start = 0
    for (let i = 1; i <= batch.length; i++) {
      if (i < batch.length && err[i] === err[start]) continue
      const text = batch.slice(start, i).join('\n')
      if (err[start]) streams.err(text)
      else streams.out(text)
      start = i
    }
  }
  const push = (isErr: boolean) => (line: string) => {
    // Unreferenced: a process with nothing else to do exits, and its exit flushes.
    if (lines.length === 0) setTimeout(flush, flushAfterMs).unref()
    lines.push(line)
    toErr.push(isErr)
    if (isErr) errCount++
  }
  return { out: push(false), err: push(true), flush }
}

/**
 * A name someone chose (a username, a group's name, an unknown login name, an object in a
 * backup), quoted for a log line or a command's output: in double quotes, with every character
 * that could move a terminal's cursor, hide itself or turn the text around written as a \u
 * escape (controls, C1 controls such as CSI included, format characters such as zero-width
 * spaces and right-to-left overrides, private-use, separators other than the space, unpaired
 * surrogates), so a line can be neither forged nor erased through it. JSON.stringify escapes
 * only the C0 controls.
 */
export function quoted(name: string): string {
  return JSON.stringify(name).replace(/[\p{C}\p{Z}]/gu, (c) => {
    if (c === ' ') return c
    let escaped = ''
    for (let unit = 0; unit < c.length; unit++) escaped += `\\u${c.charCodeAt(unit).toString(16).padStart(4, '0')}`
    return escaped
  })
}

/** For tests and tools that want quiet. */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} }
