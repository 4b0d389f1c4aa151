// CSV as spreadsheets write it (RFC 4180): fields separated by commas, a field in double quotes
// when it holds a comma, a quote (doubled) or a line break; lines end in CRLF or LF. A pure
// codec: it reads and writes plain rows and throws its own format error, with the line and
// column of the fault and none of the file's text; the routes turn it into a 400.

export class CsvFormatError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    problem: string,
  ) {
    super(`The CSV file is not valid at line ${line}, column ${column}: ${problem}.`)
    this.name = 'CsvFormatError'
  }
}

/** One record of a file: its fields, and the line it starts on (1-based; the header is line 1). */
export interface CsvRecord {
  line: number
  fields: string[]
}

/** Every record of `text`; blank lines are skipped. A byte-order mark at the start is ignored. */
export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = []
  let fields: string[] = []
  let field = ''
  let quoted = false
  let line = 1
  let column = 1
  let recordLine = 1
  let fieldStarted = false
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text
  const endRecord = () => {
    fields.push(field)
    if (fields.length > 1 || fields[0] !== '') records.push({ line: recordLine, fields })
    fields = []
    field = ''
    fieldStarted = false
  }
  for (let i = 0; i < source.length; i++) {
    const char = source[i] as string
    if (quoted) {
      if (char === '"') {
        if (source[i + 1] === '"') {
          field += '"'
          i++
          column++
        } else {
          quoted = false
          const next = source[i + 1]
          if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
            throw new CsvFormatError(line, column + 1, 'a quoted field must end at a comma or the end of the line')
          }
        }
      } else {
        field += char
        if (char === '\n') {
          line++
          column = 0
        }
      }
    } else if (char === '"') {
      if (fieldStarted) throw new CsvFormatError(line, column, 'a quote may only open a field')
      quoted = true
      fieldStarted = true
    } else if (char === ',') {
      fields.push(field)
      field = ''
      fieldStarted = false
    } else if (char === '\r' || char === '\n') {
      if (char === '\r' && source[i + 1] === '\n') i++
      endRecord()
      line++
      column = 0
      recordLine = line
    } else {
      field += char
      fieldStarted = true
    }
    column++
  }
  if (quoted) throw new CsvFormatError(line, column, 'a quoted field is not closed')
  endRecord()
  return records
}

/** A field as CSV: quoted when it must be (a comma, a quote, a line break, or spaces at its ends). */
function csvField(value: string): string {
  return /[",\r\n]|^\s|\s$/.test(value) ? `"${value.replaceAll('"', '""')}"` : value
}

/** Rows as CSV text, a header first; `null` and `undefined` are empty fields. Lines end in CRLF. */
export function writeCsv(
  header: readonly string[],
  rows: readonly (readonly (string | number | null | undefined)[])[],
) {
  const line = (values: readonly (string | number | null | undefined)[]) =>
    values.map((value) => csvField(value === null || value === undefined ? '' : String(value))).join(',')
  return [line(header), ...rows.map(line)].map((text) => `${text}\r\n`).join('')
}
