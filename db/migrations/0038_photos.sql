CREATE TABLE `listing_photos` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`listing_id` integer NOT NULL,
	`owner_user_id` integer NOT NULL,
	`position` integer NOT NULL,
	`large` text NOT NULL,
	`large_width` integer NOT NULL,
	`large_height` integer NOT NULL,
	`thumb` text NOT NULL,
	`thumb_width` integer NOT NULL,
	`thumb_height` integer NOT NULL,
	`bytes` integer NOT NULL,
	`phash` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `listing_photos_listing_idx` ON `listing_photos` (`listing_id`,`position`);--> statement-breakpoint
CREATE INDEX `listing_photos_owner_idx` ON `listing_photos` (`owner_user_id`);--> statement-breakpoint
CREATE INDEX `listing_photos_large_idx` ON `listing_photos` (`large`);--> statement-breakpoint
CREATE INDEX `listing_photos_thumb_idx` ON `listing_photos` (`thumb`);--> statement-breakpoint
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
CREATE INDEX `listing_shares_sharer_idx` ON `listing_shares` (`sharer_user_id`,`listing_id`);--> statement-breakpoint
ALTER TABLE `listings` ADD `cover_photo` text;--> statement-breakpoint
ALTER TABLE `listings` ADD `cover_width` integer;--> statement-breakpoint
ALTER TABLE `listings` ADD `cover_height` integer;