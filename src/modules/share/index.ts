// GET /s/<shareToken>: public (no token), read-only HTML page of a character.
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../deps'
import { renderSharePage, sharedCharacter } from './service'

export function shareModule({ db }: AppDeps) {
  return new Elysia().get(
    '/s/:token',
    ({ params }) =>
      new Response(renderSharePage(sharedCharacter(db, params.token)), {
        headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
      }),
    // An HTML page for people, like /docs: not part of the JSON API document.
    { params: t.Object({ token: t.String({ maxLength: 100 }) }), detail: { hide: true } },
  )
}
