DROP INDEX `listings_created_idx`;--> statement-breakpoint
DROP INDEX `listings_city_created_idx`;--> statement-breakpoint
DROP INDEX `listings_owner_created_idx`;--> statement-breakpoint
DROP INDEX `listings_type_created_idx`;--> statement-breakpoint
DROP INDEX `listings_status_created_idx`;--> statement-breakpoint
CREATE INDEX `listings_city_id_idx` ON `listings` (`city_id`,`id`);--> statement-breakpoint
CREATE INDEX `listings_owner_id_idx` ON `listings` (`owner_user_id`,`id`);--> statement-breakpoint
CREATE INDEX `listings_status_id_idx` ON `listings` (`status`,`id`);--> statement-breakpoint
CREATE INDEX `listings_city_type_deal_idx` ON `listings` (`city_id`,`post_type`,`sale_or_rent`,`id`);--> statement-breakpoint
CREATE INDEX `listings_type_deal_idx` ON `listings` (`post_type`,`sale_or_rent`,`id`);--> statement-breakpoint
CREATE INDEX `listings_location_budget_idx` ON `listings` (`location`,`budget`);