// The account's quests × characters grid (issue 41, "Every alt at a glance"): GET /account/grid in
// both APIs (a game client may show a player's alts too), and the view the website keeps of it on
// the account (GET and PUT /account/grid/view, the website's alone). A tick in the grid is the
// tracker's own completion (POST and DELETE …/completions): there is no write here.
import type { ModuleDeps } from '../../deps'
import { CONDITIONAL, NotModified, tagged } from '../../http/etag'
import type { Guard } from '../auth/guard'
import { signedInRoutes } from '../auth/guard'
import { MAX_CHARACTERS_PER_ACCOUNT } from '../characters/limits'
import type { GridCells } from './cells'
import { AccountGrid, GridView, GridViewPatch } from './model'
import { accountGrid, accountGridTag, gridView, putGridView } from './service'

export function gridModule(deps: ModuleDeps, guard: Guard, cells: GridCells) {
  const { db } = deps
  return signedInRoutes(guard, '/account', ['Characters']).get(
    '/grid',
    ({ user, request, set }) =>
      tagged(request, set, accountGridTag(deps, user.id), () => accountGrid(db, cells, user.id)),
    {
      response: { 200: AccountGrid, 304: NotModified },
      detail: {
        summary: 'Every character of the account against every quest: what each has done, compactly',
        description: `Each character (at most ${MAX_CHARACTERS_PER_ACCOUNT}) with one letter per catalog row: the settings done of that remake in its current life. About a kilobyte a character, whatever its history. ${CONDITIONAL}`,
      },
    },
  )
}

/** The view of the grids kept on the account: the website's (the order of its columns, its filters). */
export function gridViewModule({ db }: ModuleDeps, guard: Guard) {
  return signedInRoutes(guard, '/account/grid', ['Website'])
    .get('/view', ({ user }) => gridView(db, user.id), {
      response: { 200: GridView },
      detail: { summary: 'How the account looks at its grids (the defaults until it changes them)' },
    })
    .put('/view', ({ user, body }) => putGridView(db, user.id, body), {
      body: GridViewPatch,
      response: { 200: GridView },
      detail: { summary: 'Change how the account looks at its grids (the fields sent)' },
    })
}
