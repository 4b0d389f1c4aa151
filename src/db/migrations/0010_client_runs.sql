-- Runs a client writes are bounded (issue 39, item 6). What a DELETE of completions removed is
-- kept here for its undo: POST completions/restore puts back only this, never what a client sends.
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
END;