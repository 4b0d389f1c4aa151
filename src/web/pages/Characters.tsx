// The characters page (/ when signed in): every character of the account, each a link to its
// tracker, and the way to make one (or edit one) without the game plugin.
import { canonicalRace } from '../../rules/character/picklists'
import { api, type Character, type User } from '../api'
import { Layout } from '../components/Layout'
import { PageData } from '../components/PageData'
import { Table, type TableKind } from '../components/Table'
import { formatDate, formatNumber } from '../format'
import { requireUser } from '../session'

export function CharactersPage() {
  const load = async () => {
    const user = await requireUser()
    return { user, characters: (await api.characters()).characters }
  }
  return (
    <PageData title="Characters" what="your characters" heading={null} load={load}>
      {(data) => <CharactersView {...data} />}
    </PageData>
  )
}

const dash = (text: string | null | undefined) => text || '—'

const CHARACTER_TABLE: TableKind<Character> = {
  rowKey: (c) => c.id,
  rowData: (c) => ({ 'data-character': c.id }),
  columns: [
    { head: 'Name', class: 'name', cell: (c) => <a href={`/characters/${c.id}`}>{c.name}</a> },
    // The level and quest counts: figures, under headings left as they are.
    { head: 'Level', class: 'num', cell: (c) => c.totalLevel },
    { head: 'Classes', cell: (c) => dash(c.classSummary) },
    // A race stored before the table's spelling was kept ("Drow" from a snapshot) reads as the table says.
    { head: 'Race', cell: (c) => dash(c.race && canonicalRace(c.race)) },
    { head: 'Server', cell: (c) => dash(c.server) },
    { head: 'Guild', class: 'guild', cell: (c) => dash(c.guild) },
    { head: 'Last login', cell: (c) => formatDate(c.lastLoginAt) },
    { head: 'Quests done', class: 'num', cell: (c) => formatNumber(c.questsDone ?? 0) },
    {
      head: <span class="sr-only">More pages</span>,
      class: 'more-links',
      cell: (c) => (
        <>
          <a href={`/characters/${c.id}/build`}>
            Build<span class="sr-only"> of {c.name}</span>
          </a>{' '}
          <a href={`/characters/${c.id}/stats`}>
            Stats<span class="sr-only"> of {c.name}</span>
          </a>{' '}
          <a href={`/characters/${c.id}/edit`}>
            Edit<span class="sr-only"> {c.name}</span>
          </a>
        </>
      ),
    },
  ],
}

function CharactersView({ user, characters }: { user: User; characters: Character[] }) {
  return (
    <Layout title="Characters" user={user}>
      <div class="page-head">
        <h1>Your characters</h1>
        <a class="button primary" href="/characters/new">
          New character
        </a>
        {characters.length > 0 && (
          <a class="button" href="/alts">
            Every alt at a glance
          </a>
        )}
      </div>
      {characters.length === 0 ? (
        <p>
          No characters yet. The game plugin adds each character the first time you log in with it; without the plugin,
          make one with <a href="/characters/new">New character</a>.
        </p>
      ) : (
        <div class="table-wrap">
          <Table class="characters" cards rows={characters} {...CHARACTER_TABLE} />
        </div>
      )}
    </Layout>
  )
}
