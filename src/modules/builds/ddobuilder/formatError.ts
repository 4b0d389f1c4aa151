// The one error of the DDO Builder codec: a file it cannot read. A plain Error, with no HTTP
// status (the codec knows nothing of requests); the import route answers it as a 400.

/** A place in the file; line and column count from 1. */
export interface FilePosition {
  line: number
  column: number
}

/**
 * What is wrong with a file, as one sentence; `line` and `column` where the XML reader knows
 * them (the sentence says them too). The sentence never quotes the file beyond a short name or
 * value it names.
 */
export class DdoBuilderFormatError extends Error {
  override readonly name = 'DdoBuilderFormatError'
  readonly line?: number
  readonly column?: number

  constructor(message: string, position?: FilePosition) {
    super(message)
    this.line = position?.line
    this.column = position?.column
  }
}

/** The line and column of the character at `index` of `text`, counted as the XML validator does. */
export function positionIn(text: string, index: number): FilePosition {
  const lines = text.slice(0, index).split(/\r?\n/)
  return { line: lines.length, column: (lines.at(-1)?.length ?? 0) + 1 }
}
