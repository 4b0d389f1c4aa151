CREATE INDEX `completions_character_recent` ON `completions` (`character_id`,`completed_at`);--> statement-breakpoint
CREATE INDEX `quests_name_lower` ON `quests` (lower("name"),`name`);