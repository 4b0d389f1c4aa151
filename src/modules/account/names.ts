// Names people choose and others see (a username, a group's name): taken in Unicode's NFKC form,
// so that full-width letters, ligatures and the like are the letters they look like, and refused
// when they hold a character that shows nothing, or something else than it is: controls (ESC
// starts a terminal's escape sequences), format characters (a zero-width space made a second
// "gwen"; a right-to-left override turns the text around), private-use, unpaired surrogates,
// unassigned code points, and separators other than the plain space (issue 39, item 10).
// Pure: no storage.
import { BadRequest } from '../../http/errors'

/** The name as stored: NFKC, without white space at its ends. */
export const normalizedName = (name: string): string => name.normalize('NFKC').trim()

/** Unicode's Other (Cc, Cf, Cs, Co, Cn) and Separator (Zs, Zl, Zp) categories; the space is checked apart. */
const HIDDEN = /[\p{C}\p{Z}]/u

export const HIDDEN_CHARACTERS =
  'A name may not hold control, invisible, private-use or separator characters (such as a zero-width space or a right-to-left mark).'

/** 400 when a normalized name holds a hidden character (the plain space is the caller's rule). */
export function checkVisible(name: string): void {
  if (HIDDEN.test(name.replaceAll(' ', ''))) throw new BadRequest(HIDDEN_CHARACTERS)
}

/**
 * What two usernames are compared by: NFKC, then lower case (every letter, not only ASCII's as
 * SQLite's lower() does), then NFKC again (lower case can undo it).
 */
export const nameKey = (name: string): string => name.normalize('NFKC').toLowerCase().normalize('NFKC')
