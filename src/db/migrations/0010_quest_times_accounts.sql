ALTER TABLE `quest_times` ADD `timed_accounts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `quest_times` ADD `xp_accounts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The quest times count accounts, one vote each, and are rounded (issue 39): every stored figure
-- is computed again, a bite at a time as the server reads its catalog. Meanwhile the rows computed
-- the old way (0 accounts counted) are not served (src/modules/catalog/questTimes.ts), since their
-- medians could be one player's exact run.
INSERT OR IGNORE INTO `quest_times_dirty` (`name`, `difficulty`, `setting`)
  SELECT `name`, `difficulty`, `setting` FROM `quest_times`;
