// Shapes of GET /info and GET /api/health.
import { t } from 'elysia'
import { User } from '../auth/model'
import { CatalogProvenance } from '../catalog/model'
import { FEATURES } from './features'

const flags = Object.fromEntries(Object.keys(FEATURES).map((name) => [name, t.Boolean()])) as {
  [K in keyof typeof FEATURES]: ReturnType<typeof t.Boolean>
}

export const Info = t.Object({
  user: User,
  characterCount: t.Integer(),
  routeCount: t.Integer(),
  questCatalogCount: t.Integer(),
  catalog: CatalogProvenance,
  apiVersion: t.Literal(6),
  serverVersion: t.String({ description: 'Version of this Quest Tracker server (its package.json).' }),
  schemaVersion: t.Integer({
    description:
      'Version of the database schema: how many migrations it has applied (`quest-tracker --version` names it too).',
  }),
  docs: t.String({ description: 'Path of the Markdown reference.' }),
  openapi: t.String({ description: 'Path of the OpenAPI 3.0 document.' }),
  humanDocs: t.String({ description: 'Path of the interactive documentation page.' }),
  features: t.Object({
    ...flags,
    challengeSettings: t.Array(t.String()),
    remakeTiers: t.Array(t.String()),
  }),
})

const SchemaVersion = t.Integer({
  description: "The database's schema version: how many migrations it has applied.",
})

export const Health = t.Object({ ok: t.Literal(true), schemaVersion: SchemaVersion, catalog: CatalogProvenance })
