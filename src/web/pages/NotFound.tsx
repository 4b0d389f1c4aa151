// Any other path the server hands the page (it only serves the page on the paths it knows).
import { Layout } from '../components/Layout'

export function NotFoundPage() {
  return (
    <Layout title="Not found">
      <h1>Page not found</h1>
      <p>
        There is nothing at this address. <a href="/">Go to your characters</a>.
      </p>
    </Layout>
  )
}
