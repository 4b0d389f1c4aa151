// Writes the distinct elite completion names of the bench character, one a line, for upsert.lua.
// Usage: bun bench/names.ts <database path> <output file>
import { Database } from 'bun:sqlite'

const [path, out] = process.argv.slice(2)
if (!path || !out) throw new Error('usage: bun bench/names.ts <database path> <output file>')
const db = new Database(path, { readonly: true })
const names = db.query<{ name: string }, []>("select distinct name from completions where setting = 'elite'").all()
await Bun.write(out, `${names.map((n) => n.name).join('\n')}\n`)
