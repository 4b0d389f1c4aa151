ALTER TABLE `characters` ADD `levels_below` integer;--> statement-breakpoint
ALTER TABLE `characters` ADD `levels_above` integer;