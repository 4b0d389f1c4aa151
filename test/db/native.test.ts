// src/db/native.ts: a Drizzle-built select run as bun:sqlite's own statement answers the same
// rows as Drizzle does, and refuses a column that Drizzle would have had to decode.
import { expect, test } from 'bun:test'
import { desc, eq, sql } from 'drizzle-orm'
import { aliased, prepareNative } from '../../src/db/native'
import { characters, completions } from '../../src/db/schema'
import { storedColumns } from '../../src/modules/completions/service'
import { insertCharacter, testApp } from '../helpers'

test('native rows are the rows Drizzle maps, placeholders and nulls included', async () => {
  const t = testApp()
  await t.userWithToken('ann')
  const character = insertCharacter(t.db, 'ann')
  const rows: Omit<typeof completions.$inferInsert, 'characterId' | 'updatedAt'>[] = [
    { name: 'A', difficulty: 'Heroic', setting: 'elite', completedAt: '2026-01-02T00:00:00.000Z', xpEarned: 10 },
    { name: 'B', difficulty: 'Epic', setting: 'hard', completedAt: '2026-01-01T00:00:00.000Z', durationSeconds: 5 },
  ]
  for (const row of rows)
    t.db
      .insert(completions)
      .values({ ...row, characterId: character.id, updatedAt: row.completedAt })
      .run()
  const where = eq(completions.characterId, sql.placeholder('id'))
  const order = desc(completions.completedAt)
  const drizzle = t.db.select(storedColumns).from(completions).where(where).orderBy(order).all({ id: character.id })
  const native = prepareNative(t.db, t.db.select(aliased(storedColumns)).from(completions).where(where).orderBy(order))
  expect(native.all({ id: character.id })).toEqual(drizzle)
  expect(drizzle).toHaveLength(2)
  expect(native.all({ id: character.id + 1 })).toEqual([])
})

test('a column Drizzle decodes (json, boolean) is refused', () => {
  expect(() => aliased({ classes: characters.classes })).toThrow('needs decoding')
  expect(() => aliased({ shared: characters.shared })).toThrow('needs decoding')
})
