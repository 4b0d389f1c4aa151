// Request and response shapes of the group operations (website API).
import { t } from 'elysia'
import { Timestamp } from '../../http/model'
import { REMAKE_TIERS } from '../../rules/quests/completion'
import { RAID_TIMER_HOURS } from '../../rules/quests/timers'
import { STEP_DIFFICULTIES, STEP_SETTINGS } from '../../rules/routes/routeStep'
import { Character, Enum } from '../characters/model'
import { cellFields, GridCatalog } from '../grid/model'
import { INVITE_LIFETIME_DAYS, MAX_INVITE_DAYS } from '../invites/limits'
import { Progress } from '../progress/model'
import { RaidLockout } from '../timers/model'
import { MAX_GROUP_NAME_LENGTH, MAX_LINK_USES, MAX_PARTY_SIZE } from './limits'

export const GroupParams = t.Object({ id: t.Integer({ description: 'Group id.' }) })
export const GroupMemberParams = t.Object({
  id: t.Integer({ description: 'Group id.' }),
  userId: t.Integer({ description: "A member's account id (the caller's own: leave the group)." }),
})
export const GroupCharacterParams = t.Object({
  id: t.Integer({ description: 'Group id.' }),
  characterId: t.Integer({ description: 'Character id.' }),
})
export const GroupInviteParams = t.Object({
  id: t.Integer({ description: 'Group id.' }),
  inviteId: t.Integer({ description: 'Invite id (from the group, never the code).' }),
})
export const GroupRouteParams = t.Object({
  id: t.Integer({ description: 'Group id.' }),
  routeId: t.Integer({ description: 'Route id.' }),
})

const Name = t.String({
  minLength: 1,
  maxLength: MAX_GROUP_NAME_LENGTH * 4,
  description: `1 to ${MAX_GROUP_NAME_LENGTH} characters.`,
})

export const GroupNameBody = t.Object({ name: Name })
export const JoinBody = t.Object({
  code: t.String({ minLength: 1, maxLength: 200, description: 'The invite code (the last part of its /join/ link).' }),
})
export const RotateQuery = t.Object({
  rotate: t.Optional(Enum(['true', 'false'] as const, { description: '`true`: end every waiting invite first.' })),
})
export const HandOnBody = t.Object({ userId: t.Integer({ description: 'The member who becomes the owner.' }) })
export const RoleBody = t.Object({
  role: Enum(['officer', 'member'] as const, {
    description: "`officer`: makes and ends the group's links and removes members; `member`: neither.",
  }),
})
export const LinkBody = t.Optional(
  t.Object({
    uses: t.Optional(
      t.Integer({
        minimum: 1,
        maximum: MAX_LINK_USES,
        description: `How many players the link admits, 1 to ${MAX_LINK_USES} (default 1: a one-time link). A guild's link admits many, until it expires, is used up or is ended.`,
      }),
    ),
    days: t.Optional(
      t.Integer({
        minimum: 1,
        maximum: MAX_INVITE_DAYS,
        description: `How long it works, 1 to ${MAX_INVITE_DAYS} days (default ${INVITE_LIFETIME_DAYS}).`,
      }),
    ),
  }),
)

const Say = Enum(['owner', 'officer', 'member'] as const, {
  description: '`owner`: every say; `officer`: named by the owner, makes and ends links and removes members; `member`.',
})

const Member = t.Object({
  id: t.Integer({ description: 'Account id.' }),
  name: t.String({ description: 'The username (an account without one: "Player <id>"); never an e-mail address.' }),
  isOwner: t.Boolean(),
  role: Say,
  joinedAt: Timestamp(),
})

export const SharedCharacter = t.Object({
  id: t.Integer(),
  name: t.String(),
  owner: t.Object({ id: t.Integer(), name: t.String({ description: "The owner's name as members see it." }) }),
  race: t.String(),
  classes: t.String({ description: 'e.g. "Fighter 12 / Rogue 6".' }),
  level: t.Integer({ description: "The level the owner's tracker works with." }),
  server: t.String(),
  guild: t.String(),
  sharedAt: Timestamp(),
})

export const GroupSummary = t.Object({
  id: t.Integer(),
  name: t.String(),
  isOwner: t.Boolean(),
  members: t.Integer({ minimum: 1 }),
  characters: t.Integer({ minimum: 0, description: 'Characters shared with the group.' }),
  createdAt: Timestamp(),
})

export const GroupList = t.Object({ groups: t.Array(GroupSummary) })

export const GroupDetail = t.Object({
  id: t.Integer(),
  name: t.String(),
  createdAt: Timestamp(),
  isOwner: t.Boolean(),
  you: t.Integer({ description: "The caller's account id, to find themselves among the members." }),
  yourSay: Say,
  members: t.Array(Member, { description: 'Oldest member first.' }),
  characters: t.Array(SharedCharacter, { description: 'Every character shared with the group, first shared first.' }),
  yourCharacters: t.Array(
    t.Object({ id: t.Integer(), name: t.String(), shared: t.Boolean({ description: 'The group sees it.' }) }),
    { description: "The caller's characters, and which of them the group sees." },
  ),
  invites: t.Array(
    t.Object({
      id: t.Integer(),
      createdAt: Timestamp(),
      expiresAt: Timestamp(),
      maxUses: t.Integer({ minimum: 1, description: 'How many players it admits.' }),
      uses: t.Integer({ minimum: 0, description: 'How many it admitted so far.' }),
      createdBy: t.Nullable(t.Object({ id: t.Integer(), name: t.String() }), {
        description:
          "The member who made it, by the name members see; null when they are no longer a member. A member's waiting invites end when they leave, are removed, or hand the group on.",
      }),
    }),
    {
      description:
        'Links still admitting players (for the owner and the officers; empty for other members). Codes are never shown again.',
    },
  ),
})

export const InviteCreated = t.Object({
  code: t.String({ description: 'The code, shown this once.' }),
  path: t.String({ description: 'The link to pass on, on this server: /join/<code>.' }),
  expiresAt: Timestamp(),
  maxUses: t.Integer({ minimum: 1, description: 'How many players it admits.' }),
  revoked: t.Integer({ minimum: 0, description: 'Invites ended by rotating (0 otherwise).' }),
})

export const Joined = t.Object({ group: t.Object({ id: t.Integer(), name: t.String() }) })

export const Removed = t.Object({
  result: Enum(['left', 'handed-on', 'deleted'] as const, {
    description:
      '`handed-on`: the owner left and the longest-standing member owns the group now; `deleted`: nobody is left, the group is gone.',
  }),
})

export const SharedList = t.Object({ characters: t.Array(SharedCharacter) })

const SettingQuery = t.Optional(
  Enum(STEP_SETTINGS, {
    description: 'The setting a character must have done the quest at (or a harder one). Default elite.',
  }),
)

export const NeedsQuery = t.Object({
  setting: SettingQuery,
  quest: t.Optional(t.String({ maxLength: 200, description: 'One quest name (any case); all quests when omitted.' })),
  difficulty: t.Optional(Enum(STEP_DIFFICULTIES, { description: 'With `quest`: one tier only.' })),
})

const QuestNeed = {
  name: t.String(),
  difficulty: Enum(REMAKE_TIERS),
  neededBy: t.Array(t.Integer(), {
    description:
      "Characters that have not done it at the setting or a harder one in their current life. In a group's needs, only those whose own level band holds it (its level, the default band at the setting: from the Full XP minimum to two levels above it; epic content from level 20).",
  }),
  doneBy: t.Array(t.Integer(), { description: 'Characters that have.' }),
}

export const NeedsAnswer = t.Object({
  setting: Enum(STEP_SETTINGS),
  characters: t.Array(SharedCharacter),
  quests: t.Array(t.Object(QuestNeed), { description: 'Every catalog row (or those of `quest`), in catalog order.' }),
})

export const RouteNeedsAnswer = t.Object({
  route: t.Object({ id: t.Integer(), name: t.String() }),
  characters: t.Array(SharedCharacter),
  steps: t.Array(t.Object({ position: t.Integer(), setting: Enum(STEP_SETTINGS), ...QuestNeed }), {
    description: "Each step of the route at the step's own setting.",
  }),
})

export const PartyQuery = t.Object({
  characters: t.String({
    maxLength: 200,
    description: `Up to ${MAX_PARTY_SIZE} character ids shared with the group, separated by commas.`,
  }),
  setting: SettingQuery,
})

export const PartyAnswer = t.Object({
  setting: Enum(STEP_SETTINGS),
  band: t.Object(
    { from: t.Integer(), to: t.Integer() },
    { description: 'Base quest levels that give every character of the party full XP at the setting.' },
  ),
  characters: t.Array(SharedCharacter, { description: 'The party, in the order asked for.' }),
  quests: t.Array(
    t.Object({
      ...QuestNeed,
      level: t.Integer(),
      patron: t.String(),
      pack: t.String(),
      favor: t.Integer({ minimum: 0, description: "The quest's base favor at the setting." }),
      xp: t.Nullable(
        t.Integer({
          minimum: 0,
          description: "The catalog's base XP at the setting (reaper: elite's), before bonuses; null when unknown.",
        }),
      ),
      time: t.Nullable(
        t.Object(
          { medianSeconds: t.Number(), runs: t.Integer() },
          { description: "This server's median run at the setting, once enough runs are logged." },
        ),
      ),
      estimatedMinutes: t.Nullable(t.Integer({ description: "The wiki's length word in minutes, when it has one." })),
      raid: t.Boolean({ description: "A raid (the catalog's group size, else the DDO wiki's raids)." }),
      lockedOut: t.Array(t.Object({ characterId: t.Integer(), readyAt: Timestamp() }), {
        description: `Characters of the party locked out of this raid now (${RAID_TIMER_HOURS} hours after their latest run of it), and when each is ready; empty for a quest that is not a raid.`,
      }),
    }),
    { description: 'Most needed first, then the higher level, then by name.' },
  ),
  lockouts: t.Array(t.Object({ characterId: t.Integer(), raids: t.Array(RaidLockout) }), {
    description:
      'The characters of the party locked out of any raid now (not only those of the list above), each with its raids, soonest ready first.',
  }),
})

export const GroupGrid = t.Object({
  catalog: GridCatalog,
  characters: t.Array(t.Object({ ...SharedCharacter.properties, ...cellFields }), {
    description:
      'Every character shared with the group, first shared first, each with what it has done of every catalog row in its current life (one letter a row, as GET /account/grid).',
  }),
})

/** A shared character as members see it: the owner's character without its public share link. */
export const MemberTracker = t.Object({
  character: t.Omit(Character, ['shareToken', 'shareUrl', 'shared', 'questsDone']),
  progress: Progress,
  owner: t.Object({ id: t.Integer(), name: t.String({ description: "The owner's name as members see it." }) }),
})

export const SeeingParams = t.Object({ characterId: t.Integer({ description: 'Character id.' }) })

export const Seeing = t.Object({
  groups: t.Array(t.Object({ id: t.Integer(), name: t.String() }), {
    description:
      'The groups the caller is a member of that the character is shared with (empty for any other character, one that does not exist included).',
  }),
})
