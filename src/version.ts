// The server's version, read from package.json at build time: the import is inlined into the
// bundle, so the compiled executable knows its version without the file beside it.
import { version } from '../package.json'

export const VERSION: string = version
