// docs/operations.md "Limits" is the one list of every limit: it must state the numbers the code uses.
import { expect, test } from 'bun:test'
import { join } from 'node:path'
import { MAX_KEPT_ROWS } from '../src/db/freshness'
import { DISK_FULL_RETRY_SECONDS, SPACE_PROBE_BYTES } from '../src/db/space'
import { BODY_TIME_LIMIT_MS, MAX_BODY_BYTES } from '../src/http/body'
import { IDLE_TIMEOUT_SECONDS, LISTENER_BODY_HEADROOM_BYTES } from '../src/http/listen'
import { kib } from '../src/http/size'
import { MAX_TOKENS_PER_ACCOUNT } from '../src/modules/auth/limits'
import * as login from '../src/modules/auth/loginGuard'
import { MAX_SIGN_IN_BODY_BYTES } from '../src/modules/auth/model'
import * as throttle from '../src/modules/auth/throttle'
import { MAX_XML_TAGS } from '../src/modules/builds/ddobuilder'
import * as builds from '../src/modules/builds/limits'
import * as questTimes from '../src/modules/catalog/questTimes'
import { MAX_CHARACTERS_PER_ACCOUNT } from '../src/modules/characters/limits'
import * as completions from '../src/modules/completions/limits'
import { MAX_COMPLETIONS_PER_CHARACTER, MAX_RESTORED_COMPLETIONS } from '../src/modules/completions/limits'
import { MAX_STREAMS_PER_ACCOUNT, PING_MS } from '../src/modules/events'
import * as groups from '../src/modules/groups/limits'
import * as invites from '../src/modules/invites/limits'
import * as playerData from '../src/modules/playerData/limits'
import { MAX_EXCLUDED_PATRONS, MAX_TRACKER_FIELD_BYTES } from '../src/modules/progress/limits'
import * as routes from '../src/modules/routes/limits'
import { MAX_SESSIONS_PER_ACCOUNT } from '../src/modules/session/limits'
import { MAX_OTHER_PAST_LIVES } from '../src/rules/character/pastLifeGlance'
import { RUNS_COUNTED_PER_CHARACTER } from '../src/rules/quests/runs'
import * as offline from '../src/web/offline/limits'

const n = (value: number) => value.toLocaleString('en-US')

test('docs/operations.md "Limits" states the numbers the code uses', async () => {
  const operations = await Bun.file(join(import.meta.dir, '..', 'docs', 'operations.md')).text()
  const section = operations.split('\n## Limits\n')[1]?.split('\n## ')[0] ?? ''
  expect(section).toContain('| what | limit | beyond it | where |')
  const mib = (bytes: number) => `${bytes / 1024 / 1024} MiB`
  const expected = [
    `| request body (any route that declares no other limit) | ${mib(MAX_BODY_BYTES)} | 413,`,
    `the only bodies read without a token or session) | ${kib(MAX_SIGN_IN_BODY_BYTES)} | 413 |`,
    `as JSON or as an uploaded file | ${mib(builds.MAX_IMPORT_BODY_BYTES)} | 413 |`,
    `showcase leveling guide has 61,313) | ${n(MAX_XML_TAGS)} | 400 |`,
    `(from the end of its headers) | ${BODY_TIME_LIMIT_MS / 1000} s | 408,`,
    `+ ${mib(LISTENER_BODY_HEADROOM_BYTES)} of headroom) | ${mib(Math.max(MAX_BODY_BYTES, builds.MAX_IMPORT_BODY_BYTES) + LISTENER_BODY_HEADROOM_BYTES)} | 413 from Bun`,
    `idle, for | ${IDLE_TIMEOUT_SECONDS} s | connection closed |`,
    `| characters per account | ${n(MAX_CHARACTERS_PER_ACCOUNT)} | 409 |`,
    `| routes per account (created or imported) | ${n(routes.MAX_ROUTES_PER_ACCOUNT)} | 409 |`,
    `| ${n(MAX_COMPLETIONS_PER_CHARACTER)}; updating a stored one always works | 409 |`,
    `| \`completions\` in one \`PUT progress\` | ${n(MAX_COMPLETIONS_PER_CHARACTER)} items | 400 |`,
    `(what one DELETE can remove: every setting of a remake) | ${MAX_RESTORED_COMPLETIONS} | 400 |`,
    `(the restore puts back only that) | ${completions.UNDO_WINDOW_MS / 3_600_000} hour | restore 409;`,
    `read and sent in pieces of | ${kib(playerData.EXPORT_PIECE_CHARS)} of JSON`,
    `| ${n(completions.MAX_RUNS_PER_CHARACTER)}; a write past it drops the character's oldest runs, down to ${n(completions.RUNS_KEPT_AFTER_PRUNING)} (each`,
    `| deletes of completions kept for undo per character | ${completions.MAX_KEPT_DELETIONS_PER_CHARACTER}; at each DELETE`,
    `(PUT progress) | ${kib(MAX_TRACKER_FIELD_BYTES)} each, as JSON | 413 |`,
    `| \`excludedPatrons\` | ${n(MAX_EXCLUDED_PATRONS)} entries | 400 |`,
    `after the merge or replace | ${kib(builds.MAX_BUILD_DOCUMENT_BYTES)} as JSON | 413 |`,
    `\`build.levels\` ${builds.MAX_BUILD_LEVELS}; \`build.classes\` ${builds.MAX_CLASS_SLOTS};`,
    `\`feats\` and \`skills\` of a level ${builds.MAX_FEATS_PER_LEVEL} each;`,
    `trees \`selected\` ${builds.MAX_SELECTED_TREES}; trees in \`spend\` ${builds.MAX_SPENT_TREES};`,
    `\`trained\` per tree ${builds.MAX_TRAINED_PER_TREE}; \`reaper.spend\` ${builds.MAX_REAPER_SPEND};`,
    `\`trainedSpells\` ${n(builds.MAX_TRAINED_SPELLS)}; \`stances\` ${builds.MAX_STANCES};`,
    `(and the wrapper's \`incomplete\`) ${builds.MAX_INCOMPLETE_DOMAINS} | 400 |`,
    `\`tomes.skills\` | ${builds.MAX_MAP_ENTRIES} entries | 400 |`,
    `\`additionalPastLives\` | ${builds.MAX_SPECIAL_FEATS} items | 400 |`,
    `a class name (build documents and reincarnation) | ${builds.MAX_NAME_CHARS} characters | 400 |`,
    `would carry after reincarnation | ${builds.MAX_SPECIAL_FEATS} | 409 |`,
    `as stored on reincarnation or a build's sync | ${kib(builds.MAX_LIFE_BYTES)} as JSON | 413 |`,
    `= ${((builds.MAX_LIVES_PER_CHARACTER * builds.MAX_LIFE_BYTES) / 1024 / 1024).toFixed(1)} MiB) | ${n(builds.MAX_LIVES_PER_CHARACTER)} | 409 |`,
    `\`limit\` 1–${builds.MAX_LIVES_PAGE}, default ${builds.MAX_LIVES_PAGE} (every life);`,
    `(per character, and per account) | ${MAX_OTHER_PAST_LIVES} | left out of the lists and totals`,
    `of a quest and setting (its account's vote is the median of its characters' counted runs) | its latest ${RUNS_COUNTED_PER_CHARACTER}, by the time they were run |`,
    `| ${questTimes.QUEST_TIMES_REFRESH_MS / 1000} s; ${questTimes.MAX_QUEST_TIMES_KEYS_PER_REFRESH} keys, and no further key once ${n(questTimes.MAX_QUEST_TIMES_RUNS_PER_REFRESH)} runs were read (the rest as soon as ${n(questTimes.QUEST_TIMES_RUNS_PER_SECOND)} runs a second allow) |`,
    `| route steps | ${n(routes.MAX_ROUTE_STEPS)} | 400 |`,
    `| route \`boosts\`, \`optionals\` | ${kib(routes.MAX_ROUTE_FIELD_BYTES)} each, as JSON | 413 |`,
    `\`limit\` 1–${routes.MAX_ROUTE_PAGE}, default ${routes.DEFAULT_ROUTE_PAGE};`,
    `while no write could have changed them | ${n(MAX_KEPT_ROWS)} of each kind; all forgotten when full,`,
    `| live plugin tokens per account | ${MAX_TOKENS_PER_ACCOUNT}; a login beyond it`,
    `| live website sessions per account | ${MAX_SESSIONS_PER_ACCOUNT}; a sign-in beyond it`,
    `| ${throttle.MAX_FAILURES}, then locked ${throttle.FIRST_LOCK_MS / 60_000} min, doubling up to ${throttle.MAX_LOCK_MS / 3_600_000} h | 429`,
    `| ${throttle.ADDRESS_BURST}, then one more every ${throttle.ADDRESS_REFILL_MS / 1000} s | 429 |`,
    `| ${login.MAX_HASHING} running, ${login.MAX_HASHING_QUEUED} waiting | 503 |`,
    `| ${login.MAX_IN_FLIGHT_PER_NAME} places each (running or waiting); one name checked at a time | 429 |`,
    `| ${invites.SIGNUP_ATTEMPTS_PER_ADDRESS}, then one more every ${invites.SIGNUP_REFILL_MS / 1000} s; a success gives its attempt back | 429 |`,
    `| ${invites.MAX_SIGNUPS_PER_INVITER_PER_DAY} in any 24 hours, over all its groups; the operator's invites are not counted | 429 with \`Retry-After\``,
    `| ${invites.INVITE_LIFETIME_DAYS} days; \`invite create --days N\` 1 to ${invites.MAX_INVITE_DAYS} | the code is refused (404)`,
    `within ${PING_MS / 1000} s (at once when the website revoked it)`,
    `| groups an account belongs to (owned or joined) | ${groups.MAX_GROUPS_PER_ACCOUNT} | 409 |`,
    `| members of a group | ${groups.MAX_MEMBERS_PER_GROUP} | 409 |`,
    `| links of a group still admitting players | ${groups.MAX_PENDING_INVITES_PER_GROUP} | 409 |`,
    `| players one link of a group admits (\`uses\`; an operator's invite admits one) | 1 to ${groups.MAX_LINK_USES} (the most a group has members) | 400 |`,
    `| a group's name | ${groups.MAX_GROUP_NAME_LENGTH} characters | 400 |`,
    `| characters shared with a group (all its members' together) | ${groups.MAX_SHARED_CHARACTERS_PER_GROUP} | 409 |`,
    `| ${groups.SHARE_CHANGES_BURST} at once, then one more every ${groups.SHARE_CHANGES_REFILL_MS / 1000} s | 429 with \`Retry-After\` |`,
    `| ${groups.MAX_KEPT_NEEDS_ANSWERS} answers (a group and a setting each), the least recently used forgotten first; ${n(groups.MAX_KEPT_NEEDS_CHARACTERS)} characters' done quests`,
    `| characters in a party (the planner) | ${groups.MAX_PARTY_SIZE} | 400 |`,
    `(website: a character's and a group's together) | ${MAX_STREAMS_PER_ACCOUNT} | 429 |`,
    `| 503, \`Retry-After: ${DISK_FULL_RETRY_SECONDS}\` | \`src/db/space.ts\` |`,
    `(health, the log) | ${kib(SPACE_PROBE_BYTES)} | still degraded |`,
    `how old one may be and still be shown | ${offline.OFFLINE_MAX_AGE_DAYS} days (a session's life unused) | not shown,`,
    `before it shows the kept answer | ${offline.NETWORK_WAIT_MS / 1000} s | the kept answer, marked offline;`,
    `(ticks, unticks, filter changes; refused ones until dismissed), per account | ${n(offline.MAX_QUEUED_WRITES)} | the change is refused on the page`,
  ]
  for (const text of expected) expect(section).toContain(text)
  // Both skill and feat limits are one number in the table.
  expect(builds.MAX_SKILLS_PER_LEVEL).toBe(builds.MAX_FEATS_PER_LEVEL)
  // So are the per-name and per-address shares of the login queue.
  expect(login.MAX_IN_FLIGHT_PER_ADDRESS).toBe(login.MAX_IN_FLIGHT_PER_NAME)
  // The offline age is given in days and used in milliseconds: one number.
  expect(offline.OFFLINE_MAX_AGE_MS).toBe(offline.OFFLINE_MAX_AGE_DAYS * 24 * 60 * 60_000)
})
