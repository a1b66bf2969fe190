DROP INDEX `listings_date_idx`;--> statement-breakpoint
DROP INDEX `listings_city_date_idx`;--> statement-breakpoint
CREATE INDEX `listings_date_idx` ON `listings` (`date`,`id`,`status`,`owner_user_id`,`post_type`);--> statement-breakpoint
CREATE INDEX `listings_city_date_idx` ON `listings` (`city_id`,`date`,`id`,`status`,`owner_user_id`,`post_type`);