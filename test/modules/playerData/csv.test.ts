// The CSV codec: what spreadsheets write (quotes, doubled quotes, line breaks inside a field,
// CRLF, a byte-order mark) reads back as written, and a broken file is one sentence with the
// line and column of the fault and none of its text.
import { describe, expect, test } from 'bun:test'
import { CsvFormatError, parseCsv, writeCsv } from '../../../src/modules/playerData/csv'

describe('reading', () => {
  test('plain fields, CRLF and LF, blank lines skipped, a byte-order mark ignored', () => {
    expect(parseCsv('\uFEFFname,setting\r\nThe Pit,elite\n\nTangleroot,hard\n')).toEqual([
      { line: 1, fields: ['name', 'setting'] },
      { line: 2, fields: ['The Pit', 'elite'] },
      { line: 4, fields: ['Tangleroot', 'hard'] },
    ])
  })

  test('quoted fields keep commas, doubled quotes and line breaks; empty fields stay empty', () => {
    expect(parseCsv('"Zulkash, Herald of Woe","say ""hi""",\n"two\nlines",x\n')).toEqual([
      { line: 1, fields: ['Zulkash, Herald of Woe', 'say "hi"', ''] },
      { line: 2, fields: ['two\nlines', 'x'] },
    ])
  })

  test.each([
    ['"unclosed,x\n', 2, 1, 'a quoted field is not closed'],
    ['a,"b"c\n', 1, 6, 'a quoted field must end at a comma or the end of the line'],
    ['ok\nab"c"\n', 2, 3, 'a quote may only open a field'],
  ])('%j is a format error at its line and column, without the text', (text, line, column, problem) => {
    let error: unknown
    try {
      parseCsv(text)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(CsvFormatError)
    expect((error as CsvFormatError).message).toBe(
      `The CSV file is not valid at line ${line}, column ${column}: ${problem}.`,
    )
  })
})

test('what writeCsv writes, parseCsv reads back', () => {
  const rows = [
    ['Doom of the Witch-doctor: Zulkash, Herald of Woe', 'Heroic', 'elite', '2026-11-20T18:00:00.000Z', 900, null],
    ['Say "when"', 'Epic', 'hard', '', undefined, 12345],
    [' padded ', 'Heroic', 'casual', 'a\nb', 1, 2],
  ]
  const text = writeCsv(['name', 'difficulty', 'setting', 'completedAt', 'durationSeconds', 'xpEarned'], rows)
  expect(text.split('\r\n')[0]).toBe('name,difficulty,setting,completedAt,durationSeconds,xpEarned')
  expect(parseCsv(text).map((r) => r.fields)).toEqual([
    ['name', 'difficulty', 'setting', 'completedAt', 'durationSeconds', 'xpEarned'],
    ...rows.map((r) => r.map((v) => (v === null || v === undefined ? '' : String(v)))),
  ])
})
