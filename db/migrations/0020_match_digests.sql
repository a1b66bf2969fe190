CREATE TABLE `match_digests` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`sent_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `listing_matches` ADD `mailed_at` integer;--> statement-breakpoint
CREATE INDEX `listing_matches_digest_idx` ON `listing_matches` (`user_id`) WHERE seen_at is null and dismissed_at is null and mailed_at is null;