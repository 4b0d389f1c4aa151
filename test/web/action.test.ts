// The website's one way to run a page's action (src/web/action.ts): the error cleared, busy while
// it runs, the notice it earns, and a failure said in the server's sentence or the page's own.
import { describe, expect, test } from 'bun:test'
import { act, createFeedback } from '../../src/web/action'
import { ApiError } from '../../src/web/api'

describe('act', () => {
  test('a success: the old error goes, busy while it runs, the notice from its result', async () => {
    const feedback = createFeedback()
    feedback.error.value = 'an earlier refusal'
    let busyWhileRunning: boolean | undefined
    const result = await act(
      feedback,
      async () => {
        busyWhileRunning = feedback.busy.value
        return 3
      },
      { notice: (n) => `${n} done` },
    )
    expect(result).toEqual({ ok: true, value: 3 })
    expect(busyWhileRunning).toBe(true)
    expect<unknown>({ error: feedback.error.value, notice: feedback.notice.value, busy: feedback.busy.value }).toEqual({
      error: null,
      notice: '3 done',
      busy: false,
    })
  })

  test("a failure: not ok, the server's sentence, no notice, busy no more", async () => {
    const feedback = createFeedback()
    const result = await act(feedback, () => Promise.reject(new ApiError(409, 'That name is taken.')), {
      notice: () => 'never',
    })
    expect(result).toEqual({ ok: false })
    expect({ error: feedback.error.value, notice: feedback.notice.value, busy: feedback.busy.value }).toEqual({
      error: 'That name is taken.',
      notice: null,
      busy: false,
    })
  })

  test("a failure the page says its own way; null leaves the server's sentence", async () => {
    const feedback = createFeedback()
    const explain = async (e: unknown) =>
      e instanceof ApiError && e.status === 401 ? 'The current password is not right.' : null
    await act(feedback, () => Promise.reject(new ApiError(401, 'Sign in first.')), { explain })
    expect(feedback.error.value).toBe('The current password is not right.')
    await act(feedback, () => Promise.reject(new ApiError(400, 'Too short.')), { explain })
    expect(feedback.error.value).toBe('Too short.')
  })

  test('quiet: the busy flag is left alone (a switch, a revoke)', async () => {
    const feedback = createFeedback()
    let busyWhileRunning: boolean | undefined
    await act(
      feedback,
      async () => {
        busyWhileRunning = feedback.busy.value
      },
      { quiet: true },
    )
    expect(busyWhileRunning).toBe(false)
  })

  test('stale: a read the page has asked again since says nothing, whether it answered or failed', async () => {
    const feedback = createFeedback()
    const answered = await act(feedback, async () => 1, { quiet: true, notice: () => 'never', stale: () => true })
    const failed = await act(feedback, () => Promise.reject(new ApiError(404, 'No such group.')), {
      quiet: true,
      stale: () => true,
    })
    expect([answered, failed]).toEqual([{ ok: false }, { ok: false }])
    expect({ error: feedback.error.value, notice: feedback.notice.value }).toEqual({ error: null, notice: null })
  })
})
