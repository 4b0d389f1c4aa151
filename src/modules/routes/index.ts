// Shared routes (list, detail, create, update, delete) and navigation along a route.
import type { ModuleDeps } from '../../deps'
import { CONDITIONAL, NotModified, tagged } from '../../http/etag'
import { errors, IdParams, OkBody } from '../../http/model'
import { kib } from '../../http/size'
import type { Guard } from '../auth/guard'
import { signedInRoutes } from '../auth/guard'
import { DEFAULT_ROUTE_PAGE, MAX_ROUTE_FIELD_BYTES, MAX_ROUTE_PAGE, MAX_ROUTES_PER_ACCOUNT } from './limits'
import { Navigation, NavigationQuery, RouteDetail, RouteInput, RouteList, RouteListQuery } from './model'
import { createRoute, deleteRoute, getRoute, listRoutes, navigationRead, updateRoute } from './service'

export function routesModule(deps: ModuleDeps, guard: Guard) {
  const { db, clock } = deps
  return signedInRoutes(guard, '', ['Routes'])
    .get('/routes', ({ user, query }) => listRoutes(db, user.id, query), {
      query: RouteListQuery,
      response: { 200: RouteList },
      detail: {
        summary: 'Every shared route on this server, a page at a time',
        description: `Every account sees every route, by name then oldest first. Owners are shown by display name, never by e-mail. A page holds \`limit\` routes (default ${DEFAULT_ROUTE_PAGE}, at most ${MAX_ROUTE_PAGE}) after skipping \`offset\`; \`total\` counts them all.`,
      },
    })
    .post(
      '/routes',
      ({ user, body, set }) => {
        const route = createRoute(db, clock, user.id, body)
        set.status = 201
        return route
      },
      {
        body: RouteInput,
        response: { 201: RouteDetail, ...errors(409) },
        detail: {
          summary: 'Create a shared route',
          description: `Steps get position 1..n in the given order. A step without setting gets elite, without difficulty Heroic; a word that is not a concrete remake or setting (Unknown, any, a typo) is 400. boosts and optionals may each take at most ${kib(MAX_ROUTE_FIELD_BYTES)} as JSON (413). 409 when the account already owns ${MAX_ROUTES_PER_ACCOUNT} routes.`,
        },
      },
    )
    .get('/routes/:id', ({ user, params }) => getRoute(db, user.id, params.id), {
      params: IdParams,
      response: { 200: RouteDetail, ...errors(404) },
      detail: { summary: 'One route with its steps in order' },
    })
    .put('/routes/:id', ({ user, params, body }) => updateRoute(deps, user.id, params.id, body), {
      params: IdParams,
      body: RouteInput,
      response: { 200: RouteDetail, ...errors(404) },
      detail: {
        summary: 'Replace a route (owner only)',
        description:
          'Same body as create; the whole route is replaced (omitted boosts/optionals become {}). Someone else’s route answers 404 and is left unchanged.',
      },
    })
    .delete(
      '/routes/:id',
      ({ user, params }) => {
        deleteRoute(deps, user.id, params.id)
        return { ok: true as const }
      },
      {
        params: IdParams,
        response: { 200: OkBody, ...errors(404) },
        detail: {
          summary: 'Delete a route (owner only)',
          description: 'Someone else’s route answers 404 and is left unchanged.',
        },
      },
    )
    .get(
      '/navigation',
      ({ user, query, request, set }) => {
        const { tag, answer } = navigationRead(deps, user.id, query)
        return tagged(request, set, tag, answer)
      },
      {
        query: NavigationQuery,
        response: { 200: Navigation, 304: NotModified, ...errors(404) },
        detail: {
          summary: "A character's progress along a route, and the quest to run next",
          description: `match=setting (default): a step is completed when its exact setting is logged; match=remake: when any setting is logged for its remake. A completion whose remake is Unknown matches any remake of that quest name, in both modes. nextQuest is the first step not completed; once the route is finished, its last step with completed: true. Someone else’s character, or an unknown route: 404. ${CONDITIONAL}`,
        },
      },
    )
}
