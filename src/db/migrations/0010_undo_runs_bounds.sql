-- What a DELETE of completions removed is kept here for its undo (POST completions/restore puts
-- back only this, never what a client sends: issue 39, item 6).
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
CREATE INDEX `kept_deletions_expiry` ON `kept_deletions` (`expires_at`);