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
