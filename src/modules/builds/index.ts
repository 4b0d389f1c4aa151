// The live snapshot and planned build routes under /api/plugin/characters/{id}.
import type { Writer } from '../../deps'
import { CONDITIONAL, NotModified, tagged } from '../../http/etag'
import { errors, IdParams } from '../../http/model'
import { kib } from '../../http/size'
import type { Guard } from '../auth/guard'
import { signedInRoutes } from '../auth/guard'
import { assertOwnsCharacter } from '../characters/access'
import { MAX_BUILD_DOCUMENT_BYTES } from './limits'
import { LiveBuild, LivePutBody, LivePutQuery, PartialBody, PlannedBuild, PlannedPutBody } from './model'
import {
  documentFromBody,
  getLive,
  getPlanned,
  mergeRequested,
  patchBuild,
  promoteLive,
  putLive,
  putPlanned,
} from './service'

export function buildsModule(writer: Writer, guard: Guard) {
  const { db, clock, changes } = writer
  return signedInRoutes(guard, '/characters', ['Builds'])
    .guard({ params: IdParams })
    .get(
      '/:id/live',
      ({ user, params, request, set }) => {
        assertOwnsCharacter(db, user.id, params.id)
        return tagged(request, set, changes.characterTag(params.id), () => getLive(db, clock, user.id, params.id))
      },
      {
        response: { 200: LiveBuild, 304: NotModified, ...errors(404) },
        detail: { summary: 'The live snapshot (404 before the first one)', description: CONDITIONAL },
      },
    )
    .put(
      '/:id/live',
      ({ user, params, body, query }) =>
        putLive(writer, user.id, params.id, documentFromBody(body), mergeRequested(body, query.merge)),
      {
        query: LivePutQuery,
        body: LivePutBody,
        response: { 200: LiveBuild, ...errors(404) },
        detail: {
          summary: 'Store the live snapshot (replace, or merge with ?merge=1 or "merge": true)',
          description: `Body: the build document, or {"document": ..., "meta"?, "incomplete"?, "source"?}. Replaces the snapshot unless merge is asked for (then shallow per section). Syncs the character profile (classes, level, race, past lives). Never touches the planned build. 413 when the stored document would take more than ${kib(MAX_BUILD_DOCUMENT_BYTES)} as JSON; arrays have item limits (400).`,
        },
      },
    )
    .put('/:id/live/partial', ({ user, params, body }) => patchBuild(writer, user.id, params.id, 'live', body), {
      body: PartialBody,
      response: { 200: LiveBuild, ...errors(404) },
      detail: {
        summary: 'Merge a patch into the live snapshot',
        description: `Each section sent (life, build, tomes, meta, ...) is merged key by key: send the whole build.levels, enhancementTrees and so on. \`pastLives\` replaces the past lives of life.specialFeats; \`reaperPoints\` sets build.reaper.pointsAvailable. Syncs the profile like PUT live. 413 when the merged document would take more than ${kib(MAX_BUILD_DOCUMENT_BYTES)} as JSON (nothing is stored).`,
      },
    })
    .post('/:id/live/promote-to-planned', ({ user, params }) => promoteLive(writer, user.id, params.id), {
      response: { 200: PlannedBuild, ...errors(404, 413) },
      detail: {
        summary: 'Copy the live snapshot over the planned build',
        description: `404 when there is no live snapshot. The live snapshot is unchanged. 413 when the planned build, with its breakdown, would take more than ${kib(MAX_BUILD_DOCUMENT_BYTES)} as JSON.`,
      },
    })
    .get(
      '/:id/build',
      ({ user, params, request, set }) => {
        assertOwnsCharacter(db, user.id, params.id)
        return tagged(request, set, changes.characterTag(params.id), () => getPlanned(db, clock, user.id, params.id))
      },
      {
        response: { 200: PlannedBuild, 304: NotModified, ...errors(404) },
        detail: {
          summary: 'The planned build, its breakdown and validation errors',
          description: `Before any planned build is saved: 200 with \`document\` and \`updatedAt\` null. ${CONDITIONAL}`,
        },
      },
    )
    .put('/:id/build', ({ user, params, body }) => putPlanned(writer, user.id, params.id, documentFromBody(body)), {
      body: PlannedPutBody,
      response: { 200: PlannedBuild, ...errors(404) },
      detail: {
        summary: 'Replace the planned build',
        description: `Recalculates the breakdown and validation errors. Syncs the character profile only while no live snapshot exists. 413 when the stored document would take more than ${kib(MAX_BUILD_DOCUMENT_BYTES)} as JSON.`,
      },
    })
    .put('/:id/build/partial', ({ user, params, body }) => patchBuild(writer, user.id, params.id, 'planned', body), {
      body: PartialBody,
      response: { 200: PlannedBuild, ...errors(404) },
      detail: {
        summary: 'Merge a patch into the planned build',
        description: `413 when the merged document would take more than ${kib(MAX_BUILD_DOCUMENT_BYTES)} as JSON (nothing is stored).`,
      },
    })
}
