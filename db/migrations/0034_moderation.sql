ALTER TABLE `listings` ADD `suspended_by` integer;--> statement-breakpoint
ALTER TABLE `listings` ADD `suspension_reason` text;--> statement-breakpoint
ALTER TABLE `listings` ADD `suspended_at` integer;--> statement-breakpoint
ALTER TABLE `listings` ADD `review_requested_at` integer;--> statement-breakpoint
ALTER TABLE `listings` ADD `review_note` text;--> statement-breakpoint
CREATE INDEX `listings_review_idx` ON `listings` (`id`,`status`,`owner_user_id`,`city_id`) WHERE "listings"."review_requested_at" is not null;--> statement-breakpoint
CREATE INDEX `listings_review_city_idx` ON `listings` (`city_id`,`id`,`status`,`owner_user_id`) WHERE "listings"."review_requested_at" is not null;