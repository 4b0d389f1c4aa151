// The characters page (/ when signed in): every character of the account, each a link to its tracker.
import { api, type Character, type User } from '../api'
import { Layout } from '../components/Layout'
import { PageData } from '../components/PageData'
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

function CharactersView({ user, characters }: { user: User; characters: Character[] }) {
  return (
    <Layout title="Characters" user={user}>
      <h1>Your characters</h1>
      {characters.length === 0 ? (
        <p>
          No characters yet. The game plugin adds each character the first time you log in with it; then it appears
          here.
        </p>
      ) : (
        <div class="table-wrap">
          <table class="characters cards">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Level</th>
                <th scope="col">Classes</th>
                <th scope="col">Race</th>
                <th scope="col">Server</th>
                <th scope="col">Last login</th>
                <th scope="col">Quests done</th>
                <th scope="col">
                  <span class="sr-only">More pages</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {characters.map((c) => (
                <tr key={c.id} data-character={c.id}>
                  <th scope="row" class="name">
                    <a href={`/characters/${c.id}`}>{c.name}</a>
                  </th>
                  <td data-label="Level" class="num">
                    {c.totalLevel}
                  </td>
                  <td data-label="Classes">{c.classSummary || '—'}</td>
                  <td data-label="Race">{c.race || '—'}</td>
                  <td data-label="Server">{c.server || '—'}</td>
                  <td data-label="Last login">{formatDate(c.lastLoginAt)}</td>
                  <td data-label="Quests done" class="num">
                    {formatNumber(c.questsDone ?? 0)}
                  </td>
                  <td class="more-links">
                    <a href={`/characters/${c.id}/build`}>
                      Build<span class="sr-only"> of {c.name}</span>
                    </a>{' '}
                    <a href={`/characters/${c.id}/stats`}>
                      Stats<span class="sr-only"> of {c.name}</span>
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Layout>
  )
}
