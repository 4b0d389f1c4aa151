// One cache for prepared statements: a statement is built once per database handle (or
// transaction object) on first use, since building a query is most of the cost of running a
// small one. Keyed weakly, so a closed test database takes its statements with it, except the
// last one asked for: a server asks with one handle every time, and a comparison costs less
// than a WeakMap's look-up (several a request). That one stays until another handle is asked for.
export function preparedOnce<H extends object, S>(prepare: (db: H) => S): (db: H) => S {
  const statements = new WeakMap<H, S>()
  let lastDb: H | undefined
  let lastStatement: S | undefined
  return (db) => {
    if (db === lastDb) return lastStatement as S
    let statement = statements.get(db)
    if (!statement) statements.set(db, (statement = prepare(db)))
    lastDb = db
    lastStatement = statement
    return statement
  }
}
