// Ability spend between the planner's unit and ours: DDO Builder stores raises above 8 per
// ability, the build document holds build points (GAME-RULES.md).
import { scoreForSpend } from '../../../rules/builds/breakdown'
import { BASE_SCORE, POINT_BUY_COST } from '../../../rules/character/gameData'

/** Raises above 8 that point buy allows (10: score 18). */
export const MAX_RAISES = Math.max(...Object.keys(POINT_BUY_COST).map(Number)) - BASE_SCORE

/**
 * DDO Builder stores each ability's spend as raises above 8 (its AbilitySpend.cpp adds the costs
 * 1,1,1,1,1,1,2,2,3,3 per raise); our document holds build points (GAME-RULES.md): 9 raises
 * (score 17) are 13 points.
 */
export function raisesToPoints(raises: number): number | undefined {
  return POINT_BUY_COST[BASE_SCORE + raises]
}

/** Points back to raises for the export; a spend that buys no score is written as what it affords. */
export function pointsToRaises(points: number): number {
  const exact = scoreForSpend(points)
  if (exact !== undefined) return exact - BASE_SCORE
  let best = 0
  for (const [score, cost] of Object.entries(POINT_BUY_COST)) if (cost <= points) best = Math.max(best, Number(score))
  return Math.max(0, best - BASE_SCORE)
}
