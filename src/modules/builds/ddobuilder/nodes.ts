// Reading the elements of a parsed DDO Builder file: children, text and whole numbers, with
// absent and empty elements read the same way everywhere.
import { DdoBuilderFormatError } from './formatError'

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
