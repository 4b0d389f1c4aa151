// Limits of a player's data coming in (listed in docs/operations.md "Limits").
import { MAX_COMPLETIONS_PER_CHARACTER } from '../completions/limits'

/**
 * A completions CSV's text. A character's whole history (MAX_COMPLETIONS_PER_CHARACTER lines of
 * about 100 characters, as the export writes them) is 1 MB; three times that leaves room for
 * long names and extra columns.
 */
export const MAX_IMPORT_CSV_CHARS = 3 * 1024 * 1024

/** The import route's body: the CSV as a JSON string, whose escaping (quotes, line ends) adds a little. */
export const MAX_IMPORT_BODY_BYTES = 4 * 1024 * 1024

/** Completions one CSV may hold: as many as a character may have. */
export const MAX_IMPORT_CSV_LINES = MAX_COMPLETIONS_PER_CHARACTER

/**
 * The account export is read and sent in pieces of about this much JSON (one completion's runs at
 * most beyond it), other requests answered between two pieces: read whole, 450,000 runs of one
 * character were a 47 MB string built in 3-9 s while every other request waited (issue 39).
 */
export const EXPORT_PIECE_CHARS = 256 * 1024
