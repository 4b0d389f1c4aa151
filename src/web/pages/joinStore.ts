// The invite page's actions: join a group's invite signed in, or make an account with it (and
// join its group). Each goes on to the page that follows once the server said yes, the button
// staying busy meanwhile; a refusal is the server's sentence under the form.
import { act, createFeedback, goOnTo } from '../action'
import { api } from '../api'

export type JoinStore = ReturnType<typeof createJoinStore>

export interface SignUpFields {
  username: string
  email: string
  password: string
  repeatPassword: string
}

export function createJoinStore(code: string) {
  const feedback = createFeedback()

  async function join(): Promise<void> {
    const joined = await act(feedback, () => api.joinGroup(code))
    if (joined.ok) goOnTo(feedback, `/groups/${joined.value.group.id}`)
  }

  async function signUp(fields: SignUpFields): Promise<void> {
    if (fields.password !== fields.repeatPassword) {
      feedback.error.value = 'The password and its repetition differ.'
      return
    }
    const email = fields.email.trim()
    const made = await act(feedback, () =>
      api.signUp({ code, username: fields.username, password: fields.password, ...(email ? { email } : {}) }),
    )
    // Signed in now (the answer set the cookie): to the group, or to make a first character.
    if (made.ok) goOnTo(feedback, made.value.group ? `/groups/${made.value.group.id}` : '/', { replace: true })
  }

  return { feedback, join, signUp }
}
