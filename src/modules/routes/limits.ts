// Every limit of shared routes, in one place (listed in docs/operations.md "Limits" and
// docs/routes.md).
// Routes are listed to every account, so what one account stores is what all of them download.

/** Routes one account may own: creating (or importing) one more is 409. */
export const MAX_ROUTES_PER_ACCOUNT = 200

/** Steps of one route (400 beyond it). */
export const MAX_ROUTE_STEPS = 2000

/** `boosts` and `optionals` of a route: each, as JSON (413). Real ones are a few flags and numbers. */
export const MAX_ROUTE_FIELD_BYTES = 16 * 1024

/** GET /routes pages: `limit` defaults to this many routes... */
export const DEFAULT_ROUTE_PAGE = 100
/** ...and may ask for up to this many (400 beyond). */
export const MAX_ROUTE_PAGE = 500
