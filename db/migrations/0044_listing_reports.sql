CREATE TABLE `listing_reports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`listing_id` integer NOT NULL,
	`reporter_id` integer NOT NULL,
	`city_id` integer NOT NULL,
	`reason` text NOT NULL,
	`note` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`answered_at` integer,
	`answer` text,
	FOREIGN KEY (`listing_id`) REFERENCES `listings`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`reporter_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `listing_reports_open_unique` ON `listing_reports` (`listing_id`,`reporter_id`) WHERE "listing_reports"."answered_at" is null;--> statement-breakpoint
CREATE INDEX `listing_reports_reporter_idx` ON `listing_reports` (`reporter_id`,`answer`);--> statement-breakpoint
ALTER TABLE `listings` ADD `reported_off_at` integer;