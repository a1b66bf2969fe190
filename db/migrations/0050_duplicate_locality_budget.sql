DROP INDEX `listings_locality_idx`;--> statement-breakpoint
CREATE INDEX `listings_locality_idx` ON `listings` (`city_id`,lower("locality"),`post_type`,`sale_or_rent`,`status`,`budget`,`size`);