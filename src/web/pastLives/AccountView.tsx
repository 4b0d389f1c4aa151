// The account's past lives (/past-lives): the totals over every character, each character's
// totals (a link to its own page), and each past life the characters have, summed.
import type { AccountPastLives } from '../api'
import { Table, type TableKind } from '../components/Table'
import { TotalsList } from './parts'

type Row = AccountPastLives['characters'][number]

const totalCell = (kind: keyof Row['totals']) => (row: Row) => <span data-total={kind}>{row.totals[kind]}</span>

const CHARACTER_TABLE: TableKind<Row> = {
  rowKey: (row) => row.id,
  rowData: (row) => ({ 'data-character': row.id }),
  columns: [
    { head: 'Name', class: 'name', cell: (row) => <a href={`/past-lives/${row.id}`}>{row.name}</a> },
    { head: 'Lives', num: true, cell: (row) => row.lives },
    { head: 'Heroic', num: true, cell: totalCell('heroic') },
    { head: 'Racial', num: true, cell: totalCell('racial') },
    { head: 'Iconic', num: true, cell: totalCell('iconic') },
    { head: 'Epic', num: true, cell: totalCell('epic') },
    {
      head: 'All',
      num: true,
      cell: (row) => (
        <>
          <span data-total="all">{row.totals.all}</span>
          <span class="muted small"> of {row.max.all}</span>
        </>
      ),
    },
  ],
}

interface Entry {
  feat: string
  count: number
  label: string
}

/** The past lives of one kind that any character has, with their sums, and how many have none. */
function Sums({ kind, title, entries, noun }: { kind: string; title: string; entries: Entry[]; noun: string }) {
  const had = entries.filter((e) => e.count > 0)
  return (
    <div data-kind={kind}>
      <dt>{title}</dt>
      <dd>
        {had.length === 0 ? (
          <span class="muted">none yet</span>
        ) : (
          <ul class="pl-sums">
            {had.map((e) => (
              <li key={e.feat} data-past-life={e.feat} data-count={e.count}>
                {e.label} <strong>{e.count}</strong>
              </li>
            ))}
          </ul>
        )}
        <span class="muted small">
          {' '}
          ({had.length} of {entries.length} {noun})
        </span>
      </dd>
    </div>
  )
}

export function AccountPastLivesView({ account }: { account: AccountPastLives }) {
  if (account.characters.length === 0) {
    return (
      <>
        <h1>Past lives</h1>
        <p>No characters yet. The game plugin adds each character the first time you log in with it.</p>
      </>
    )
  }
  return (
    <>
      <h1>Past lives</h1>
      <p class="hint">
        Every character's past lives, from its lives and the game's live snapshot (whichever says more). A past life
        stacks up to 3. Choose a character for every past life it has and what its next reincarnation would grant.
      </p>
      <TotalsList totals={account.totals} label="Past lives of all characters" />
      <h2>Characters</h2>
      <div class="table-wrap">
        <Table class="pl-characters" cards rows={account.characters} {...CHARACTER_TABLE} />
      </div>
      <h2>All characters together</h2>
      <dl class="pl-sum-list">
        <Sums
          kind="heroic"
          title="Heroic"
          noun="classes"
          entries={account.heroic.map((e) => ({ feat: e.feat, count: e.count, label: e.class }))}
        />
        <Sums
          kind="racial"
          title="Racial"
          noun="races"
          entries={account.racial.map((e) => ({ feat: e.feat, count: e.count, label: e.race }))}
        />
        <Sums
          kind="iconic"
          title="Iconic"
          noun="iconics"
          entries={account.iconic.map((e) => ({ feat: e.feat, count: e.count, label: e.race }))}
        />
        <Sums
          kind="epic"
          title="Epic"
          noun="epic past lives"
          entries={account.epic.flatMap((s) =>
            s.feats.map((f) => ({ feat: f.feat, count: f.count, label: `${f.name} (${s.sphere})` })),
          )}
        />
      </dl>
    </>
  )
}
