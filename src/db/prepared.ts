// One cache for prepared statements: a statement is built once per database handle (or
// transaction object) on first use, since building a query is most of the cost of running a
// small one. Keyed weakly, so a closed test database takes its statements with it.
export function preparedOnce<H extends object, S>(prepare: (db: H) => S): (db: H) => S {
  const statements = new WeakMap<H, S>()
  return (db) => {
    let statement = statements.get(db)
    if (!statement) statements.set(db, (statement = prepare(db)))
    return statement
  }
}
