// Reading a DDO Builder file's XML safely: no entity a DOCTYPE declares is ever expanded, nesting
// and size are bounded, characters XML does not allow are refused, and every way the text can
// fail to be XML is one sentence (with its line and column where the parser knows them).

import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { MAX_IMPORT_BODY_BYTES } from '../limits'
import { DdoBuilderFormatError, positionIn } from './formatError'
import { REPEATED } from './vocabulary'

/** The longest file read (characters): no more than the import's body can hold anyway. */
export const MAX_XML_CHARS = MAX_IMPORT_BODY_BYTES

/**
 * Tags read at most (every `<`, so comments and closing tags count too). Each element the parser
 * builds takes a few hundred bytes: 8 MiB of `<a/>` would take a gigabyte and seconds. The
 * planner's own 2.2 MB showcase leveling guide (35 builds) has 61,313; this is room for a file of
 * that density at the import's full 8 MiB, and about 100 MB to parse at most.
 */
export const MAX_XML_TAGS = 400_000

/** How many `<` the text holds, stopping once past `limit`. */
function tagsBeyond(xml: string, limit: number): boolean {
  let count = 0
  for (let at = xml.indexOf('<'); at !== -1; at = xml.indexOf('<', at + 1)) {
    if (++count > limit) return true
  }
  return false
}

/** DDO Builder nests about 8 deep (gear augments); anything far deeper is not one of its files. */
const MAX_DEPTH = 64

const BUILT_IN_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

/** A character reference XML allows (Char production of XML 1.0), as a string; else undefined. */
function fromCodePoint(code: number): string | undefined {
  const allowed =
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  return allowed ? String.fromCodePoint(code) : undefined
}

/**
 * Expands only what every XML document may use without a DTD: the five built-in entities and
 * character references. Entities a DOCTYPE declares are never expanded (no billion laughs, no
 * external entities); the parser's own decoder would also take HTML names like `&nbsp;`.
 */
const xmlEntityDecoder = {
  setExternalEntities: (_entities: Record<string, string>) => {},
  addInputEntities: (_entities: Record<string, string>) => {},
  reset: () => {},
  setXmlVersion: (_version: number) => {},
  decode: (text: string) =>
    text.includes('&')
      ? text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z]{2,4});/g, (whole, name: string) => {
          if (name.startsWith('#x')) return fromCodePoint(Number.parseInt(name.slice(2), 16)) ?? whole
          if (name.startsWith('#')) return fromCodePoint(Number.parseInt(name.slice(1), 10)) ?? whole
          return BUILT_IN_ENTITIES[name] ?? whole
        })
      : text,
}

const parser = new XMLParser({
  ignoreAttributes: true, // the planner's only attributes are format versions
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseTagValue: false, // numbers are read (and refused) by the readers, not guessed
  trimValues: false, // names are matched exactly by the planner ("Aasimar Scourge " has a space)
  isArray: (name) => REPEATED.has(name),
  jPath: false, // callbacks get no path string: building one per element costs a third of the parse
  maxNestedTags: MAX_DEPTH,
  // Limits for the DOCTYPE reader in case one slipped past the check below; nothing it declares
  // is expanded anyway (see xmlEntityDecoder).
  processEntities: { enabled: true, maxEntitySize: 1, maxEntityCount: 1, maxTotalExpansions: 1 },
  entityDecoder: xmlEntityDecoder,
})

/** One character XML 1.0 does not allow (the complement of its Char production). */
export const NOT_XML_CHAR = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u

/** What is refused before the parser reads a character: size, emptiness, a DTD, characters XML forbids. */
function checkText(xml: string): void {
  if (xml.length > MAX_XML_CHARS) {
    throw new DdoBuilderFormatError(
      `The file is larger than ${MAX_XML_CHARS / 1024 / 1024} MiB; DDO Builder files are far smaller.`,
    )
  }
  if (xml.trim() === '') {
    throw new DdoBuilderFormatError('The file is empty: expected a DDO Builder character file (.DDOBuild).')
  }
  // Anything else a player may pick (a text file, a spreadsheet, a picture) is not XML at all: say
  // that, rather than the parser's "char 'n' is not expected" about its first letter.
  if (!/^\uFEFF?\s*</.test(xml)) {
    throw new DdoBuilderFormatError(
      'The file is not a DDO Builder character file (.DDOBuild): it does not begin with an XML tag, as every .DDOBuild file does.',
    )
  }
  if (tagsBeyond(xml, MAX_XML_TAGS)) {
    throw new DdoBuilderFormatError(
      `The file has more than ${MAX_XML_TAGS.toLocaleString('en-US')} tags; DDO Builder files, even leveling guides with a build per level, have far fewer.`,
    )
  }
  // DDO Builder never writes a DTD; one here can only be an attempt at entity tricks.
  if (/<!DOCTYPE/i.test(xml)) {
    throw new DdoBuilderFormatError('The file declares a DOCTYPE, which DDO Builder files never have; it is not read.')
  }
  // XML 1.0 allows neither control characters nor U+FFFE/U+FFFF (nor lone surrogates); the
  // parser would pass them on and the export could not write them back.
  const illegal = NOT_XML_CHAR.exec(xml)
  if (illegal) {
    const code = illegal[0].codePointAt(0) ?? 0
    const position = positionIn(xml, illegal.index)
    throw new DdoBuilderFormatError(
      `The file is not well-formed XML: character U+${code.toString(16).toUpperCase().padStart(4, '0')} is not allowed in XML (line ${position.line}).`,
      position,
    )
  }
}

/** The parser's failure as a sentence: its own wording where it is about the file, not about itself. */
function parserFailure(xml: string, reason: string): DdoBuilderFormatError {
  // A tag that runs to the end of the file (a cut-off file): the parser says where, by offset,
  // and quotes the text around it, which is neither for the reader nor worth echoing.
  const unclosed = /^readTagExp returned undefined at position (\d+)\b/.exec(reason)
  if (unclosed) {
    const position = positionIn(xml, Number(unclosed[1]))
    return new DdoBuilderFormatError(
      `The file is not well-formed XML: the tag at line ${position.line}, column ${position.column} does not close before the file ends; the file may be cut off.`,
      position,
    )
  }
  if (/nested/i.test(reason)) {
    return new DdoBuilderFormatError(
      `The file nests elements more than ${MAX_DEPTH} deep; it is not a DDO Builder file.`,
    )
  }
  // The parser refuses element names like __proto__ or constructor (prototype pollution).
  const reserved = /^\[SECURITY\].*?"([^"]{0,60})"/.exec(reason)
  if (reserved) {
    return new DdoBuilderFormatError(
      `The file has an element named "${reserved[1]}", which no DDO Builder file has; it is not read.`,
    )
  }
  // Otherwise the validator says where (the parser's own words often do not).
  return wellFormedFailure(xml) ?? new DdoBuilderFormatError(`The file is not well-formed XML: ${short(reason)}.`)
}

/** A sentence quoting the file's names (tags, attributes) at most 40 characters each, with no end stop. */
const short = (reason: string) =>
  reason
    .replace(/(['"])([^'"\s]{41,})\1/g, (_, quote: string, name: string) => `${quote}${name.slice(0, 40)}…${quote}`)
    .replace(/\.?$/, '')

/** The validator's objection (it names mismatched tags the parser lets pass), with its place. */
function wellFormedFailure(xml: string): DdoBuilderFormatError | undefined {
  const valid = XMLValidator.validate(xml)
  if (valid === true) return undefined
  const { msg, line, col } = valid.err
  return new DdoBuilderFormatError(
    `The file is not well-formed XML: ${short(msg)} (line ${line}${col ? `, column ${col}` : ''}).`,
    { line, column: col },
  )
}

/** A file's text as elements; DdoBuilderFormatError when it is not safe, well-formed XML. */
export function parseXml(xml: string): XmlNode {
  checkText(xml)
  let parsed: unknown
  try {
    // The parser first: it stops at the nesting limit at once, where the validator would walk
    // the whole file.
    parsed = parser.parse(xml)
  } catch (error) {
    throw parserFailure(xml, error instanceof Error ? error.message : String(error))
  }
  const failure = wellFormedFailure(xml)
  if (failure) throw failure
  if (!isNode(parsed)) {
    throw new DdoBuilderFormatError('The file is not XML: expected a DDO Builder character file (.DDOBuild).')
  }
  return parsed
}

// Reading the elements of a parsed DDO Builder file: children, text and whole numbers, with
// absent and empty elements read the same way everywhere.
/** An element of the parsed file: its child elements (and `#text`) by tag name. */
export type XmlNode = { readonly [tag: string]: unknown }

export const isNode = (value: unknown): value is XmlNode =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The values of a child element (own keys only, so `toString` never finds Object's method). */
export function all(node: XmlNode | undefined, tag: string): unknown[] {
  if (!node || !Object.hasOwn(node, tag)) return []
  const value = node[tag]
  return Array.isArray(value) ? value : [value]
}

/** A child element with children; an empty one (`<SpecialFeats/>`) reads as no children. */
export function child(node: XmlNode | undefined, tag: string): XmlNode | undefined {
  const value = all(node, tag)[0]
  if (isNode(value)) return value
  return value === '' ? {} : undefined
}

export const children = (node: XmlNode | undefined, tag: string): XmlNode[] =>
  all(node, tag)
    .map((value) => (isNode(value) ? value : value === '' ? {} : undefined))
    .filter(isNode)

/** The text of a child element, as written (untrimmed); undefined when absent or not text. */
export function text(node: XmlNode | undefined, tag: string): string | undefined {
  const value = all(node, tag)[0]
  return typeof value === 'string' ? value : undefined
}

export const texts = (node: XmlNode | undefined, tag: string): string[] =>
  all(node, tag).filter((value): value is string => typeof value === 'string')

/** A whole number of a child element; absent or empty is undefined, anything else is refused. */
export function whole(node: XmlNode | undefined, tag: string, where: string): number | undefined {
  const value = text(node, tag)?.trim()
  if (value === undefined || value === '') return undefined
  if (!/^\d{1,9}$/.test(value)) {
    throw new DdoBuilderFormatError(`${where} > ${tag} must be a whole number, not "${value.slice(0, 40)}".`)
  }
  return Number(value)
}
