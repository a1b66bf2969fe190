CREATE TABLE `listing_shares` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token` text NOT NULL,
	`listing_id` integer NOT NULL,
	`sharer_user_id` integer NOT NULL,
	`views` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `listing_shares_token_unique` ON `listing_shares` (`token`);--> statement-breakpoint
CREATE INDEX `listing_shares_sharer_idx` ON `listing_shares` (`sharer_user_id`,`listing_id`);