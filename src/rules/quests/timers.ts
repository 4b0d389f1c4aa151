// A character's loot timers, from the runs this server keeps (issue 41): the raids it is locked
// out of, and how many times it ran each quest in the chest timer's current window. Pure
// functions over plain runs and a clock's "now"; the numbers are the cited rules below.
//
// A run is not a chest looting: a run the game client posts is a completion of the quest, which
// usually means its end chest was opened, but a character may skip a chest or loot one in a run
// it never finishes. So these are estimates, said as such to the player ("ransack likely").
import { questNameKey } from './questMatch'

const HOUR_MS = 3_600_000

/**
 * After a raid, a character's end reward of it is locked for this long: DDO's raid timer, 2 days
 * and 18 hours. The DDO wiki's "Raid" page (https://ddowiki.com/page/Raid) and the raids' pages
 * ("Unlike other raids in DDO, there is no raid timer" on Tempest's Spine's) say there is one; the
 * stored copy of those pages this project could read does not reach the number, so it is the one
 * public trackers use: DDO Audit counts a character's raids of the last 66 hours
 * (Clemeit/ddo-audit-service, sanic/services/postgres.py, `INTERVAL '66 hours'`), as older tools
 * did (237,600 s). The timer is the raid's, whichever setting it was run on (normal, hard, elite,
 * reaper) and whichever tier: DDO Audit keeps it per quest, one for a quest's heroic and epic
 * versions; a legendary version the wiki gives a name of its own ("The Codex and the Shroud") is
 * a raid of its own.
 */
export const RAID_TIMER_HOURS = 66

/**
 * Raids without a raid timer: the DDO wiki's Tempest's Spine page
 * (https://ddowiki.com/page/Tempest's_Spine): "Unlike other raids in DDO, there is no raid timer,
 * so you may re-run the quest at any time." (The heroic raid; its legendary version is another
 * quest.)
 */
export const RAIDS_WITHOUT_TIMER: readonly string[] = ["Tempest's Spine"]

/**
 * The DDO wiki's "Chest ransack" page (https://ddowiki.com/page/Chest_ransack): every chest has a
 * ransack timer per character, started by its first looting when none is running, lasting exactly
 * 7 days (168 hours); the first eight lootings in that time drop normal loot, and from the ninth
 * the chest is ransacked. It is not kept per difficulty level (normal, hard, elite), so every
 * setting's runs count together; a quest's other tier is another quest here (its own chests).
 */
export const RANSACK_TIMER_HOURS = 168
/** Lootings with normal loot in one ransack window; the next one (the ninth) is ransacked. */
export const NORMAL_LOOT_LOOTINGS = 8

/** A run as the timers read it: which quest and tier, and when it was completed (ISO 8601). */
export interface TimerRun {
  name: string
  difficulty: string
  completedAt: string
}

export interface RaidLockout {
  /** The raid's name, as its runs are stored (the catalog's spelling). */
  name: string
  /** The latest run of it, any tier or setting. */
  lastRunAt: string
  /** When its end reward can be looted again: lastRunAt + RAID_TIMER_HOURS. */
  readyAt: string
}

export interface QuestWeek {
  name: string
  difficulty: string
  /** Runs of the quest (this tier, every setting) in the chest timer's current window. */
  runsThisWeek: number
  /** The run that began the window: the first after the previous window ended. */
  windowStartedAt: string
  /** When the window ends and the count starts over: windowStartedAt + RANSACK_TIMER_HOURS. */
  resetsAt: string
  /**
   * Whether the next run's chests are likely ransacked: NORMAL_LOOT_LOOTINGS runs or more in the
   * window already, so the next is the ninth or later.
   */
  ransackLikely: boolean
}

const iso = (ms: number) => new Date(ms).toISOString()

const WITHOUT_TIMER = new Set(RAIDS_WITHOUT_TIMER.map(questNameKey))

/** Whether a raid has a raid timer (all but RAIDS_WITHOUT_TIMER). */
export const hasRaidTimer = (name: string): boolean => !WITHOUT_TIMER.has(questNameKey(name))

/**
 * The raids a character is locked out of at `now`: per raid (every tier and setting of the name
 * together), its latest run, locked until RAID_TIMER_HOURS after it. `isRaid` says which names
 * are raids (the catalog's facts); a raid without a timer never locks. Soonest ready first.
 */
export function raidLockouts(
  runs: readonly TimerRun[],
  isRaid: (name: string, difficulty: string) => boolean,
  now: Date,
): RaidLockout[] {
  const latest = new Map<string, number>()
  for (const run of runs) {
    if (!isRaid(run.name, run.difficulty) || !hasRaidTimer(run.name)) continue
    const at = Date.parse(run.completedAt)
    if (Number.isNaN(at)) continue
    if (at > (latest.get(run.name) ?? Number.NEGATIVE_INFINITY)) latest.set(run.name, at)
  }
  const lockouts: RaidLockout[] = []
  for (const [name, at] of latest) {
    const ready = at + RAID_TIMER_HOURS * HOUR_MS
    if (ready > now.getTime()) lockouts.push({ name, lastRunAt: iso(at), readyAt: iso(ready) })
  }
  return lockouts.sort((a, b) => a.readyAt.localeCompare(b.readyAt) || a.name.localeCompare(b.name))
}

/**
 * Each quest's chest window at `now`, per name and tier (every setting together), for the quests
 * with a window running: walked from the quest's first run, a run when no window runs begins one
 * of RANSACK_TIMER_HOURS, and the runs inside it count (the first included). A window that ended
 * before `now` is gone: the count starts over at the next run. The runs given must be all of the
 * quest's (an earlier window decides where the current one began). Most runs first.
 */
export function questWeeks(runs: readonly TimerRun[], now: Date): QuestWeek[] {
  const byQuest = new Map<string, { name: string; difficulty: string; times: number[] }>()
  for (const run of runs) {
    const at = Date.parse(run.completedAt)
    if (Number.isNaN(at)) continue
    const key = `${run.name}\u0000${run.difficulty}`
    const quest = byQuest.get(key)
    if (quest) quest.times.push(at)
    else byQuest.set(key, { name: run.name, difficulty: run.difficulty, times: [at] })
  }
  const window = RANSACK_TIMER_HOURS * HOUR_MS
  const weeks: QuestWeek[] = []
  for (const { name, difficulty, times } of byQuest.values()) {
    times.sort((a, b) => a - b)
    let start = Number.NEGATIVE_INFINITY
    let count = 0
    for (const at of times) {
      if (at >= start + window) {
        start = at
        count = 0
      }
      count++
    }
    if (start + window <= now.getTime()) continue
    weeks.push({
      name,
      difficulty,
      runsThisWeek: count,
      windowStartedAt: iso(start),
      resetsAt: iso(start + window),
      ransackLikely: count >= NORMAL_LOOT_LOOTINGS,
    })
  }
  return weeks.sort((a, b) => b.runsThisWeek - a.runsThisWeek || a.name.localeCompare(b.name))
}

/**
 * How far back a character's runs decide its timers at `now`: runs before it cannot lock a raid,
 * and only quests with a run since it can have a chest window running (older runs of those
 * quests still place the window: questWeeks).
 */
export const timersSince = (now: Date): string => iso(now.getTime() - RANSACK_TIMER_HOURS * HOUR_MS)
