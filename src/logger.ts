// A one-line-per-event logger with a level threshold (LOG_LEVEL). Errors go to stderr.
import type { LogLevel } from './config'

export interface Logger {
  debug(message: string): void
  info(message: string): void
  warn(message: string): void
  error(message: string): void
}

const ORDER: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 }

export function createLogger(level: LogLevel, write: (line: string, level: LogLevel) => void = defaultWrite): Logger {
  const at = (lineLevel: LogLevel) => (message: string) => {
    if (ORDER[lineLevel] >= ORDER[level])
      write(`${new Date().toISOString()} ${lineLevel.padEnd(5)} ${message}`, lineLevel)
  }
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }
}

function defaultWrite(line: string, level: LogLevel): void {
  if (level === 'error' || level === 'warn') console.error(line)
  else console.log(line)
}

/** For tests and tools that want quiet. */
export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} }
