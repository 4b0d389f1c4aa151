// GET /api/share/<shareToken>: public (no sign-in), read-only data of a shared character for the
// share page (/s/<shareToken>, served by the website module).
import { Elysia } from 'elysia'
import type { AppDeps } from '../../deps'
import { errors } from '../../http/model'
import { SharedTracker, ShareParams } from './model'
import { sharedTracker } from './service'

export function shareModule({ db }: AppDeps) {
  return new Elysia().get('/api/share/:token', ({ params }) => sharedTracker(db, params.token), {
    params: ShareParams,
    response: { 200: SharedTracker, ...errors(404) },
    detail: { summary: 'A shared character, read-only (no sign-in)', tags: ['Website'] },
  })
}
