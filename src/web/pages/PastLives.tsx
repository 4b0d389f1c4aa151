// The past lives pages: /past-lives (the account: each character's totals and the sums) and
// /past-lives/{id} (one character: every past life, and what its next reincarnation grants).
import { api } from '../api'
import { Layout } from '../components/Layout'
import { type Link, PageData } from '../components/PageData'
import { AccountPastLivesView } from '../pastLives/AccountView'
import { CharacterPastLivesView } from '../pastLives/CharacterView'
import { requireUser } from '../session'

const TO_PAST_LIVES: Link = { href: '/past-lives', label: 'Back to the past lives' }

export function PastLivesPage() {
  const load = async () => ({ user: await requireUser(), account: await api.pastLives() })
  return (
    <PageData title="Past lives" what="the past lives" load={load}>
      {({ user, account }) => (
        <Layout title="Past lives" user={user}>
          <AccountPastLivesView account={account} />
        </Layout>
      )}
    </PageData>
  )
}

export function CharacterPastLivesPage({ id }: { id: number }) {
  const load = async () => ({ user: await requireUser(), glance: await api.characterPastLives(id) })
  return (
    <PageData title="Past lives" what="the past lives" back={TO_PAST_LIVES} load={load}>
      {({ user, glance }) => (
        <Layout title={`${glance.character.name}: past lives`} user={user}>
          <CharacterPastLivesView glance={glance} />
        </Layout>
      )}
    </PageData>
  )
}
