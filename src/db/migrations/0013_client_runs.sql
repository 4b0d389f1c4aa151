-- Runs a client writes are bounded, and reads no longer go through them all (issue 39, item 6).
-- What a DELETE of completions removed is kept (kept_deletions) for its undo: POST
-- completions/restore puts back only this, never what a client sends.
CREATE TABLE `character_quest_times` (
	`character_id` integer NOT NULL,
	`name` text NOT NULL,
	`difficulty` text NOT NULL,
	`setting` text NOT NULL,
	`timed_runs` integer NOT NULL,
	`median_duration_seconds` real NOT NULL,
	`xp_runs` integer NOT NULL,
	`median_xp_per_minute` real,
	PRIMARY KEY(`character_id`, `name`, `difficulty`, `setting`),
	FOREIGN KEY (`character_id`) REFERENCES `characters`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `character_quest_times_dirty` (
	`character_id` integer NOT NULL,
	`name` text NOT NULL,
	`difficulty` text NOT NULL,
	`setting` text NOT NULL,
	PRIMARY KEY(`character_id`, `name`, `difficulty`, `setting`),
	FOREIGN KEY (`character_id`) REFERENCES `characters`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `kept_deletions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`character_id` integer NOT NULL,
	`removed_at` text NOT NULL,
	`expires_at` text NOT NULL,
	`completions` text NOT NULL,
	FOREIGN KEY (`character_id`) REFERENCES `characters`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `kept_deletions_character` ON `kept_deletions` (`character_id`,`expires_at`);--> statement-breakpoint
CREATE INDEX `kept_deletions_expiry` ON `kept_deletions` (`expires_at`);--> statement-breakpoint
ALTER TABLE `characters` ADD `kept_runs` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Each character's kept runs, counted once here and then by the triggers below, whatever path
-- writes a run (a post, a tracker's set, an import, a restore, a deleted completion or character).
UPDATE `characters` SET `kept_runs` = (
  SELECT count(*) FROM `runs` r JOIN `completions` c ON c.`id` = r.`completion_id`
  WHERE c.`character_id` = `characters`.`id`);--> statement-breakpoint
CREATE TRIGGER `runs_count_kept_insert` AFTER INSERT ON `runs` BEGIN
  UPDATE `characters` SET `kept_runs` = `kept_runs` + 1
    WHERE `id` = (SELECT `character_id` FROM `completions` WHERE `id` = NEW.`completion_id`);
END;--> statement-breakpoint
CREATE TRIGGER `runs_count_kept_delete` AFTER DELETE ON `runs` BEGIN
  UPDATE `characters` SET `kept_runs` = `kept_runs` - 1
    WHERE `id` = (SELECT `character_id` FROM `completions` WHERE `id` = OLD.`completion_id`);
END;--> statement-breakpoint
-- A completion's runs that go with it (ON DELETE CASCADE) no longer find it once it is gone, so
-- they are counted here, before (the trigger above then finds no completion, and counts nothing).
CREATE TRIGGER `completions_count_kept_delete` BEFORE DELETE ON `completions` BEGIN
  UPDATE `characters` SET `kept_runs` = `kept_runs` - (SELECT count(*) FROM `runs` WHERE `completion_id` = OLD.`id`)
    WHERE `id` = OLD.`character_id`;
END;--> statement-breakpoint
-- Each character's own quest times are recomputed, at their next read, for the quests,
-- difficulties and settings whose runs changed: every path that adds, changes or removes a run
-- marks its key here, so none can forget to. A key of a character being deleted is not marked
-- (its rows go with it).
CREATE TRIGGER `runs_mark_character_times_insert` AFTER INSERT ON `runs` BEGIN
  INSERT OR IGNORE INTO `character_quest_times_dirty` (`character_id`, `name`, `difficulty`, `setting`)
    SELECT `character_id`, `name`, `difficulty`, `setting` FROM `completions` WHERE `id` = NEW.`completion_id`;
END;--> statement-breakpoint
CREATE TRIGGER `runs_mark_character_times_update` AFTER UPDATE ON `runs` BEGIN
  INSERT OR IGNORE INTO `character_quest_times_dirty` (`character_id`, `name`, `difficulty`, `setting`)
    SELECT `character_id`, `name`, `difficulty`, `setting` FROM `completions` WHERE `id` IN (OLD.`completion_id`, NEW.`completion_id`);
END;--> statement-breakpoint
CREATE TRIGGER `runs_mark_character_times_delete` AFTER DELETE ON `runs` BEGIN
  INSERT OR IGNORE INTO `character_quest_times_dirty` (`character_id`, `name`, `difficulty`, `setting`)
    SELECT `character_id`, `name`, `difficulty`, `setting` FROM `completions` WHERE `id` = OLD.`completion_id`;
END;--> statement-breakpoint
CREATE TRIGGER `completions_mark_character_times_delete` AFTER DELETE ON `completions` BEGIN
  INSERT OR IGNORE INTO `character_quest_times_dirty` (`character_id`, `name`, `difficulty`, `setting`)
    SELECT OLD.`character_id`, OLD.`name`, OLD.`difficulty`, OLD.`setting`
    WHERE EXISTS (SELECT 1 FROM `characters` WHERE `id` = OLD.`character_id`);
END;--> statement-breakpoint
CREATE TRIGGER `completions_mark_character_times_update` AFTER UPDATE OF `character_id`, `name`, `difficulty`, `setting` ON `completions` BEGIN
  INSERT OR IGNORE INTO `character_quest_times_dirty` (`character_id`, `name`, `difficulty`, `setting`)
    SELECT OLD.`character_id`, OLD.`name`, OLD.`difficulty`, OLD.`setting`
    WHERE EXISTS (SELECT 1 FROM `characters` WHERE `id` = OLD.`character_id`)
    UNION SELECT NEW.`character_id`, NEW.`name`, NEW.`difficulty`, NEW.`setting`;
END;--> statement-breakpoint
-- Every key with a timed run, computed at its character's first read after the upgrade.
INSERT OR IGNORE INTO `character_quest_times_dirty` (`character_id`, `name`, `difficulty`, `setting`)
  SELECT DISTINCT c.`character_id`, c.`name`, c.`difficulty`, c.`setting` FROM `completions` c
  WHERE EXISTS (SELECT 1 FROM `runs` r WHERE r.`completion_id` = c.`id` AND r.`duration_seconds` > 0);