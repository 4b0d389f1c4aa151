ALTER TABLE `group_members` ADD `role` text DEFAULT 'member' NOT NULL;--> statement-breakpoint
ALTER TABLE `invites` ADD `max_uses` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `invites` ADD `uses` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- An invite used before links could admit more than one account was used once.
UPDATE `invites` SET `uses` = 1 WHERE `used_at` IS NOT NULL;
