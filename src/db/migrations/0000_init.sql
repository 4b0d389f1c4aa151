CREATE TABLE `api_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`label` text NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` text NOT NULL,
	`revoked_at` text,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_tokens_hash_unique` ON `api_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `api_tokens_user` ON `api_tokens` (`user_id`);--> statement-breakpoint
CREATE TABLE `builds` (
	`character_id` integer NOT NULL,
	`role` text NOT NULL,
	`document` text NOT NULL,
	`meta` text DEFAULT '{}' NOT NULL,
	`breakdown_cache` text,
	`validation_errors` text DEFAULT '[]' NOT NULL,
	`reaper_points_available` real,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`character_id`, `role`),
	FOREIGN KEY (`character_id`) REFERENCES `characters`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `catalog_state` (
	`id` integer PRIMARY KEY NOT NULL,
	`source` text NOT NULL,
	`synced_at` text NOT NULL,
	`rows` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `characters` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`given_name` text NOT NULL,
	`surname` text DEFAULT '' NOT NULL,
	`race` text DEFAULT '' NOT NULL,
	`gender` text DEFAULT '' NOT NULL,
	`alignment` text DEFAULT '' NOT NULL,
	`server` text DEFAULT '' NOT NULL,
	`guild` text DEFAULT '' NOT NULL,
	`classes` text DEFAULT '[]' NOT NULL,
	`epic_levels` integer DEFAULT 0 NOT NULL,
	`last_login_at` text,
	`target_difficulty` text DEFAULT 'any' NOT NULL,
	`level_band` integer DEFAULT 0 NOT NULL,
	`character_level_override` integer,
	`excluded_patrons` text DEFAULT '[]' NOT NULL,
	`version_filter` text DEFAULT '{"heroic":"any","epic":"any","legendary":"any"}' NOT NULL,
	`xp_boosts` text DEFAULT '{}' NOT NULL,
	`optional_pursuit` text DEFAULT '{}' NOT NULL,
	`pack_state` text DEFAULT '{}' NOT NULL,
	`quest_notes` text DEFAULT '{}' NOT NULL,
	`share_token` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `characters_user` ON `characters` (`user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `characters_share_token_unique` ON `characters` (`share_token`);--> statement-breakpoint
CREATE TABLE `completions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`character_id` integer NOT NULL,
	`name` text NOT NULL,
	`difficulty` text NOT NULL,
	`setting` text NOT NULL,
	`completed_at` text NOT NULL,
	`duration_seconds` integer,
	`xp_earned` integer,
	`reaper_xp_earned` integer,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`character_id`) REFERENCES `characters`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `completions_triple_unique` ON `completions` (`character_id`,`name`,`difficulty`,`setting`);--> statement-breakpoint
CREATE TABLE `lives` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`character_id` integer NOT NULL,
	`life_index` integer NOT NULL,
	`is_current` integer NOT NULL,
	`name` text DEFAULT '' NOT NULL,
	`race` text DEFAULT '' NOT NULL,
	`alignment` text DEFAULT '' NOT NULL,
	`classes` text DEFAULT '[]' NOT NULL,
	`special_feats` text DEFAULT '[]' NOT NULL,
	`created_at` text NOT NULL,
	`archived_at` text,
	FOREIGN KEY (`character_id`) REFERENCES `characters`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lives_character_index_unique` ON `lives` (`character_id`,`life_index`);--> statement-breakpoint
CREATE TABLE `quests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`difficulty` text NOT NULL,
	`level` integer NOT NULL,
	`solo_xp` integer,
	`normal_xp` integer,
	`hard_xp` integer,
	`elite_xp` integer,
	`duration` text DEFAULT '' NOT NULL,
	`pack` text DEFAULT '' NOT NULL,
	`patron` text DEFAULT '' NOT NULL,
	`favor` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `quests_name_difficulty_unique` ON `quests` (`name`,`difficulty`);--> statement-breakpoint
CREATE TABLE `route_steps` (
	`route_id` integer NOT NULL,
	`position` integer NOT NULL,
	`name` text NOT NULL,
	`difficulty` text NOT NULL,
	`setting` text NOT NULL,
	PRIMARY KEY(`route_id`, `position`),
	FOREIGN KEY (`route_id`) REFERENCES `routes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `routes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_id` integer NOT NULL,
	`name` text NOT NULL,
	`boosts` text DEFAULT '{}' NOT NULL,
	`optionals` text DEFAULT '{}' NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `routes_owner` ON `routes` (`owner_id`);--> statement-breakpoint
CREATE TABLE `scorecards` (
	`quest_name` text PRIMARY KEY NOT NULL,
	`data` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text,
	`username` text,
	`password_hash` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_username_unique` ON `users` (lower("username"));