// GET /api/share/<shareToken>: public (no sign-in), read-only data of a shared character for the
// share page (/s/<shareToken>, served by the website module).
import { Elysia } from 'elysia'
import type { ModuleDeps } from '../../deps'
import { NotModified, tagged } from '../../http/etag'
import { errors } from '../../http/model'
import { SharedTracker, ShareParams } from './model'
import { sharedTag, sharedTracker } from './service'

export function shareModule(deps: ModuleDeps) {
  // The share page polls this every few seconds: unchanged, it costs a 304.
  return new Elysia().get(
    '/api/share/:token',
    ({ params, request, set }) =>
      tagged(request, set, sharedTag(deps, params.token), () => sharedTracker(deps.db, params.token)),
    {
      params: ShareParams,
      response: { 200: SharedTracker, 304: NotModified, ...errors(404) },
      detail: { summary: 'A shared character, read-only (no sign-in)', tags: ['Website'] },
    },
  )
}
