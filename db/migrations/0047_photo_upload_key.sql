ALTER TABLE `listing_photos` ADD `upload_key` text;--> statement-breakpoint
CREATE UNIQUE INDEX `listing_photos_upload_key_unique` ON `listing_photos` (`listing_id`,`upload_key`);