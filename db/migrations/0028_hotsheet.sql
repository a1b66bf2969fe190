ALTER TABLE `listings` ADD `hot_event` text;--> statement-breakpoint
ALTER TABLE `listings` ADD `hot_at` integer;--> statement-breakpoint
CREATE INDEX `listings_hot_idx` ON `listings` (coalesce("hot_at", "created_at"));