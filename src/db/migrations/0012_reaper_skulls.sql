-- The skull count of reaper runs (issue 41 section 3): each run's, and on its completion the most
-- of its runs'. Nullable: what was stored before says nothing of skulls.
ALTER TABLE `completions` ADD `reaper_skulls` integer;--> statement-breakpoint
ALTER TABLE `runs` ADD `reaper_skulls` integer;