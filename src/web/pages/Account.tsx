// The account page (/account): loads the signed-in user, the plugin tokens and the characters,
// then draws the account's settings and data (account/AccountView.tsx).
import { AccountView } from '../account/AccountView'
import { api } from '../api'
import { Layout } from '../components/Layout'
import { PageData } from '../components/PageData'
import { requireUser } from '../session'

export function AccountPage() {
  const load = async () => {
    const user = await requireUser()
    const [tokens, list] = await Promise.all([api.tokens(), api.characters()])
    return { user, tokens: tokens.tokens, characters: list.characters }
  }
  return (
    <PageData title="Account" what="your account" load={load}>
      {({ user, tokens, characters }) => (
        <Layout title="Account" user={user}>
          <AccountView user={user} initialTokens={tokens} characters={characters} />
        </Layout>
      )}
    </PageData>
  )
}
