ALTER TABLE `catalog_state` ADD `origin` text DEFAULT 'sync' NOT NULL;--> statement-breakpoint
ALTER TABLE `catalog_state` ADD `attempts` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
ALTER TABLE `quests` ADD `quest_id` integer;--> statement-breakpoint
ALTER TABLE `quests` ADD `group_size` text;--> statement-breakpoint
ALTER TABLE `quests` ADD `free_to_vip` integer;