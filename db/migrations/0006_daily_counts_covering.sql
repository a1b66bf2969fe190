DROP INDEX `listing_daily_counts_city_idx`;--> statement-breakpoint
CREATE INDEX `listing_daily_counts_date_type_idx` ON `listing_daily_counts` (`date`,`post_type`,`city_id`,`n`);--> statement-breakpoint
CREATE INDEX `listing_daily_counts_city_idx` ON `listing_daily_counts` (`city_id`,`date`,`post_type`,`n`);