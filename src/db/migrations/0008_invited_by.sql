-- ON DELETE set null written by hand: drizzle-kit leaves the action out of an added column's
-- REFERENCES, and a removed account that had invited others could then not be deleted.
ALTER TABLE `users` ADD `invited_by` integer REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null;--> statement-breakpoint
CREATE INDEX `users_invited_by` ON `users` (`invited_by`,`created_at`);
