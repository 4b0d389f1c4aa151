CREATE TABLE `quest_times` (
	`name` text NOT NULL,
	`difficulty` text NOT NULL,
	`setting` text NOT NULL,
	`timed_runs` integer NOT NULL,
	`timed_characters` integer NOT NULL,
	`median_duration_seconds` real,
	`xp_runs` integer NOT NULL,
	`xp_characters` integer NOT NULL,
	`median_xp_per_minute` real,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`name`, `difficulty`, `setting`)
);
--> statement-breakpoint
CREATE TABLE `quest_times_dirty` (
	`name` text NOT NULL,
	`difficulty` text NOT NULL,
	`setting` text NOT NULL,
	PRIMARY KEY(`name`, `difficulty`, `setting`)
);
--> statement-breakpoint
CREATE TABLE `runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`completion_id` integer NOT NULL,
	`completed_at` text NOT NULL,
	`duration_seconds` integer,
	`xp_earned` integer,
	`reaper_xp_earned` integer,
	FOREIGN KEY (`completion_id`) REFERENCES `completions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `runs_completion_time_unique` ON `runs` (`completion_id`,`completed_at`);--> statement-breakpoint
DROP INDEX `completions_triple_unique`;--> statement-breakpoint
DROP INDEX `completions_character_recent`;--> statement-breakpoint
ALTER TABLE `completions` ADD `life_index` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `completions_life_triple_unique` ON `completions` (`character_id`,`life_index`,`name`,`difficulty`,`setting`);--> statement-breakpoint
CREATE INDEX `completions_life_recent` ON `completions` (`character_id`,`life_index`,`completed_at`);--> statement-breakpoint
CREATE INDEX `completions_quest` ON `completions` (`name`,`difficulty`,`setting`);--> statement-breakpoint
ALTER TABLE `users` ADD `share_quest_times` integer DEFAULT true NOT NULL;--> statement-breakpoint
-- Completions stored before lives were kept: each goes to the life that ran at its time (an
-- archived life whose start and end are known and hold it; the earliest such life when it is
-- older than all of them; else the current life; else life 1). Before this migration the
-- triple was unique per character, so no two rows can meet in one life.
UPDATE `completions` SET `life_index` = coalesce(
  (SELECT l.`life_index` FROM `lives` l WHERE l.`character_id` = `completions`.`character_id`
     AND l.`archived_at` IS NOT NULL AND l.`archived_at` > l.`created_at`
     AND `completions`.`completed_at` >= l.`created_at` AND `completions`.`completed_at` < l.`archived_at`
     ORDER BY l.`life_index` DESC LIMIT 1),
  (SELECT l.`life_index` FROM `lives` l WHERE l.`character_id` = `completions`.`character_id`
     AND l.`archived_at` IS NOT NULL AND l.`archived_at` > l.`created_at`
     AND `completions`.`completed_at` < l.`created_at`
     ORDER BY l.`life_index` ASC LIMIT 1),
  (SELECT l.`life_index` FROM `lives` l WHERE l.`character_id` = `completions`.`character_id` AND l.`is_current` = 1),
  1
);--> statement-breakpoint
-- The one run each stored completion still knows: its last.
INSERT INTO `runs` (`completion_id`, `completed_at`, `duration_seconds`, `xp_earned`, `reaper_xp_earned`)
  SELECT `id`, `completed_at`, `duration_seconds`, `xp_earned`, `reaper_xp_earned` FROM `completions`;--> statement-breakpoint
INSERT INTO `quest_times_dirty` (`name`, `difficulty`, `setting`)
  SELECT DISTINCT `name`, `difficulty`, `setting` FROM `completions`;
--> statement-breakpoint
-- The quest times are recomputed for the remakes and settings whose runs changed: every path
-- that adds, changes or removes a run (a post, a tracker's set, an import, a deleted completion,
-- character or account) marks its key here, so none can forget to.
CREATE TRIGGER `runs_mark_quest_times_insert` AFTER INSERT ON `runs` BEGIN
  INSERT OR IGNORE INTO `quest_times_dirty` (`name`, `difficulty`, `setting`)
    SELECT `name`, `difficulty`, `setting` FROM `completions` WHERE `id` = NEW.`completion_id`;
END;--> statement-breakpoint
CREATE TRIGGER `runs_mark_quest_times_update` AFTER UPDATE ON `runs` BEGIN
  INSERT OR IGNORE INTO `quest_times_dirty` (`name`, `difficulty`, `setting`)
    SELECT `name`, `difficulty`, `setting` FROM `completions` WHERE `id` IN (OLD.`completion_id`, NEW.`completion_id`);
END;--> statement-breakpoint
CREATE TRIGGER `runs_mark_quest_times_delete` AFTER DELETE ON `runs` BEGIN
  INSERT OR IGNORE INTO `quest_times_dirty` (`name`, `difficulty`, `setting`)
    SELECT `name`, `difficulty`, `setting` FROM `completions` WHERE `id` = OLD.`completion_id`;
END;--> statement-breakpoint
CREATE TRIGGER `completions_mark_quest_times_delete` AFTER DELETE ON `completions` BEGIN
  INSERT OR IGNORE INTO `quest_times_dirty` (`name`, `difficulty`, `setting`)
    VALUES (OLD.`name`, OLD.`difficulty`, OLD.`setting`);
END;
