// The account page (/account): loads the signed-in user and the plugin tokens, then draws the
// account's settings (account/AccountView.tsx).
import { AccountView } from '../account/AccountView'
import { api } from '../api'
import { Layout } from '../components/Layout'
import { PageData } from '../components/PageData'
import { requireUser } from '../session'

export function AccountPage() {
  const load = async () => {
    const user = await requireUser()
    return { user, tokens: (await api.tokens()).tokens }
  }
  return (
    <PageData title="Account" what="your account" load={load}>
      {({ user, tokens }) => (
        <Layout title="Account" user={user}>
          <AccountView user={user} initialTokens={tokens} />
        </Layout>
      )}
    </PageData>
  )
}
