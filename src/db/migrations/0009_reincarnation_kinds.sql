-- Lives say how they began (`kind`: the reincarnation out of the life before) and which quest
-- life they are in (`quest_life`: the life_index of the life that began it; an epic or lesser
-- reincarnation keeps the quest life, a true one begins its own). SQLite adds no NOT NULL column
-- without a default, so the table is made anew with its rows, ids and sequence kept; every life
-- stored so far begins its own quest life, as the server took every reincarnation until now.
CREATE TABLE `__new_lives` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`character_id` integer NOT NULL,
	`life_index` integer NOT NULL,
	`is_current` integer NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`race` text DEFAULT '' NOT NULL,
	`alignment` text DEFAULT '' NOT NULL,
	`classes` text DEFAULT '[]' NOT NULL,
	`special_feats` text DEFAULT '[]' NOT NULL,
	`kind` text,
	`quest_life` integer NOT NULL,
	`created_at` text NOT NULL,
	`archived_at` text,
	FOREIGN KEY (`character_id`) REFERENCES `characters`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_lives` (`id`, `character_id`, `life_index`, `is_current`, `name`, `race`, `alignment`, `classes`, `special_feats`, `kind`, `quest_life`, `created_at`, `archived_at`)
  SELECT `id`, `character_id`, `life_index`, `is_current`, `name`, `race`, `alignment`, `classes`, `special_feats`, NULL, `life_index`, `created_at`, `archived_at` FROM `lives`;--> statement-breakpoint
DELETE FROM `sqlite_sequence` WHERE `name` = '__new_lives';--> statement-breakpoint
INSERT INTO `sqlite_sequence` (`name`, `seq`) SELECT '__new_lives', `seq` FROM `sqlite_sequence` WHERE `name` = 'lives';--> statement-breakpoint
DROP TABLE `lives`;--> statement-breakpoint
ALTER TABLE `__new_lives` RENAME TO `lives`;--> statement-breakpoint
CREATE UNIQUE INDEX `lives_character_index_unique` ON `lives` (`character_id`,`life_index`);
--> statement-breakpoint
-- The repair (issue 38): characters that went through an epic reincarnation on this server had
-- their completions hidden in the finished life, the new one starting from none. A stored life
-- tells an epic reincarnation by what it has beyond the life before (rules/character/
-- reincarnation.ts recordedKind): one stack more of exactly one epic past life, and no other past
-- life more. Anything else (a heroic, racial or iconic past life more, nothing more, or more than
-- one epic stack, as a live snapshot synced after the reincarnation may bring) stays a true one,
-- as it was; a lesser reincarnation cannot be told from a true one that granted nothing.
WITH `ordered` AS (
  SELECT `id`, `special_feats`,
    lag(`special_feats`) OVER (PARTITION BY `character_id` ORDER BY `life_index`) AS `before_feats`
  FROM `lives`
),
`after_stacks` AS (
  SELECT o.`id`, json_extract(f.`value`, '$.type') AS `type`, json_extract(f.`value`, '$.name') AS `name`,
    sum(coalesce(json_extract(f.`value`, '$.stacks'), 1)) AS `stacks`
  FROM `ordered` o, json_each(o.`special_feats`) f
  WHERE o.`before_feats` IS NOT NULL
    AND json_extract(f.`value`, '$.type') IN ('HeroicPastLife', 'RacialPastLife', 'IconicPastLife', 'EpicPastLife')
  GROUP BY o.`id`, 2, 3
),
`before_stacks` AS (
  SELECT o.`id`, json_extract(f.`value`, '$.type') AS `type`, json_extract(f.`value`, '$.name') AS `name`,
    sum(coalesce(json_extract(f.`value`, '$.stacks'), 1)) AS `stacks`
  FROM `ordered` o, json_each(o.`before_feats`) f
  WHERE o.`before_feats` IS NOT NULL
  GROUP BY o.`id`, 2, 3
),
`gained` AS (
  SELECT a.`id`, a.`type`, min(a.`stacks`, 3) - coalesce(b.`stacks`, 0) AS `more`
  FROM `after_stacks` a
  LEFT JOIN `before_stacks` b ON b.`id` = a.`id` AND b.`type` = a.`type` AND b.`name` = a.`name`
  WHERE min(a.`stacks`, 3) > coalesce(b.`stacks`, 0)
)
UPDATE `lives` SET `kind` = 'epic' WHERE `id` IN (
  SELECT `id` FROM `gained` GROUP BY `id` HAVING count(*) = 1 AND max(`type`) = 'EpicPastLife' AND max(`more`) = 1
);--> statement-breakpoint
-- Each life's quest life: an epic (or lesser) one stays in the quest life of the life before it.
WITH RECURSIVE `ordered` AS (
  SELECT `id`, `character_id`, `life_index`, `kind`,
    row_number() OVER (PARTITION BY `character_id` ORDER BY `life_index`) AS `n`
  FROM `lives`
),
`chain` AS (
  SELECT `id`, `character_id`, `n`, `life_index` AS `quest_life` FROM `ordered` WHERE `n` = 1
  UNION ALL
  SELECT o.`id`, o.`character_id`, o.`n`,
    CASE WHEN o.`kind` IN ('epic', 'lesser') THEN c.`quest_life` ELSE o.`life_index` END
  FROM `ordered` o JOIN `chain` c ON o.`character_id` = c.`character_id` AND o.`n` = c.`n` + 1
)
UPDATE `lives` SET `quest_life` = (SELECT `quest_life` FROM `chain` WHERE `chain`.`id` = `lives`.`id`)
  WHERE `id` IN (SELECT `id` FROM `chain`);--> statement-breakpoint
-- The completions of those lives go to their quest life. Where the quest life holds the same
-- (name, difficulty, setting) already (run again after the epic reincarnation), or two such lives
-- do, they become one completion (as an imported history merges them: completions/service.ts
-- moveCompletionsToNewLives): every run of each (a run at the same time is the same run, once),
-- the counts added, the latest run's figures. Nothing is lost.
CREATE TEMP TABLE `repair_moves` AS
  SELECT c.`id`, c.`character_id`, l.`quest_life` AS `target`, c.`name`, c.`difficulty`, c.`setting`
  FROM `completions` c
  JOIN `lives` l ON l.`character_id` = c.`character_id` AND l.`life_index` = c.`life_index`
  WHERE l.`quest_life` <> c.`life_index`;--> statement-breakpoint
-- The completion each one ends as: the one the quest life holds, else the first of those moving.
CREATE TEMP TABLE `repair_keepers` AS
  SELECT m.`id`, coalesce(
    (SELECT c.`id` FROM `completions` c
      WHERE c.`character_id` = m.`character_id` AND c.`life_index` = m.`target`
        AND c.`name` = m.`name` AND c.`difficulty` = m.`difficulty` AND c.`setting` = m.`setting`),
    (SELECT min(o.`id`) FROM `repair_moves` o
      WHERE o.`character_id` = m.`character_id` AND o.`target` = m.`target`
        AND o.`name` = m.`name` AND o.`difficulty` = m.`difficulty` AND o.`setting` = m.`setting`)
  ) AS `keeper`
  FROM `repair_moves` m;--> statement-breakpoint
UPDATE `completions` SET (`completed_at`, `duration_seconds`, `xp_earned`, `reaper_xp_earned`) = (
    SELECT c.`completed_at`, c.`duration_seconds`, c.`xp_earned`, c.`reaper_xp_earned`
    FROM `completions` c JOIN `repair_keepers` k ON k.`id` = c.`id`
    WHERE k.`keeper` = `completions`.`id` AND k.`id` <> k.`keeper`
    ORDER BY c.`completed_at` DESC, c.`id` DESC LIMIT 1)
  WHERE `id` IN (SELECT `keeper` FROM `repair_keepers` WHERE `id` <> `keeper`)
    AND `completed_at` < (
      SELECT max(c.`completed_at`) FROM `completions` c JOIN `repair_keepers` k ON k.`id` = c.`id`
      WHERE k.`keeper` = `completions`.`id` AND k.`id` <> k.`keeper`);--> statement-breakpoint
UPDATE `completions` SET `runs` = `runs` + (
    SELECT sum(c.`runs`) FROM `completions` c JOIN `repair_keepers` k ON k.`id` = c.`id`
    WHERE k.`keeper` = `completions`.`id` AND k.`id` <> k.`keeper`)
  WHERE `id` IN (SELECT `keeper` FROM `repair_keepers` WHERE `id` <> `keeper`);--> statement-breakpoint
-- A run at a time the completion kept has already is the same run: it stays, and goes below.
UPDATE OR IGNORE `runs` SET `completion_id` = (SELECT k.`keeper` FROM `repair_keepers` k WHERE k.`id` = `runs`.`completion_id`)
  WHERE `completion_id` IN (SELECT `id` FROM `repair_keepers` WHERE `id` <> `keeper`);--> statement-breakpoint
DELETE FROM `runs` WHERE `completion_id` IN (SELECT `id` FROM `repair_keepers` WHERE `id` <> `keeper`);--> statement-breakpoint
DELETE FROM `completions` WHERE `id` IN (SELECT `id` FROM `repair_keepers` WHERE `id` <> `keeper`);--> statement-breakpoint
UPDATE `completions` SET `life_index` = (SELECT m.`target` FROM `repair_moves` m WHERE m.`id` = `completions`.`id`)
  WHERE `id` IN (SELECT `id` FROM `repair_moves`);--> statement-breakpoint
DROP TABLE `repair_keepers`;--> statement-breakpoint
DROP TABLE `repair_moves`;
