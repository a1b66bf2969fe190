CREATE TABLE `listing_counts` (
	`city_id` integer NOT NULL,
	`post_type` text NOT NULL,
	`sale_or_rent` text NOT NULL,
	`status` text NOT NULL,
	`location` text NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`city_id`, `post_type`, `sale_or_rent`, `status`, `location`)
);
--> statement-breakpoint
DROP INDEX `listings_city_id_idx`;--> statement-breakpoint
DROP INDEX `listings_owner_id_idx`;--> statement-breakpoint
DROP INDEX `listings_city_type_deal_idx`;--> statement-breakpoint
DROP INDEX `listings_type_deal_idx`;--> statement-breakpoint
DROP INDEX `listings_location_budget_idx`;--> statement-breakpoint
CREATE INDEX `listings_visibility_idx` ON `listings` (`id`,`status`,`owner_user_id`);--> statement-breakpoint
CREATE INDEX `listings_city_id_idx` ON `listings` (`city_id`,`id`,`status`,`owner_user_id`);--> statement-breakpoint
CREATE INDEX `listings_owner_id_idx` ON `listings` (`owner_user_id`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `listings_city_type_deal_idx` ON `listings` (`city_id`,`post_type`,`sale_or_rent`,`id`,`status`,`owner_user_id`);--> statement-breakpoint
CREATE INDEX `listings_type_deal_idx` ON `listings` (`post_type`,`sale_or_rent`,`id`,`status`,`owner_user_id`);--> statement-breakpoint
CREATE INDEX `listings_location_budget_idx` ON `listings` (`location`,`budget`,`status`,`owner_user_id`);--> statement-breakpoint
CREATE INDEX `users_role_active_city_idx` ON `users` (`role`,`is_active`,`city_id`);--> statement-breakpoint
INSERT INTO `listing_counts` (city_id, post_type, sale_or_rent, status, location, n)
  SELECT city_id, post_type, sale_or_rent, status, coalesce(location, ''), count(*) FROM `listings` GROUP BY 1, 2, 3, 4, 5;
--> statement-breakpoint
CREATE TRIGGER `listing_counts_after_insert` AFTER INSERT ON `listings` BEGIN
  INSERT INTO `listing_counts` (city_id, post_type, sale_or_rent, status, location, n)
    VALUES (new.city_id, new.post_type, new.sale_or_rent, new.status, coalesce(new.location, ''), 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `listing_counts_after_delete` AFTER DELETE ON `listings` BEGIN
  UPDATE `listing_counts` SET n = n - 1
    WHERE city_id = old.city_id AND post_type = old.post_type AND sale_or_rent = old.sale_or_rent AND status = old.status AND location = coalesce(old.location, '');
END;
--> statement-breakpoint
CREATE TRIGGER `listing_counts_after_update` AFTER UPDATE OF city_id, post_type, sale_or_rent, status, location ON `listings` BEGIN
  UPDATE `listing_counts` SET n = n - 1
    WHERE city_id = old.city_id AND post_type = old.post_type AND sale_or_rent = old.sale_or_rent AND status = old.status AND location = coalesce(old.location, '');
  INSERT INTO `listing_counts` (city_id, post_type, sale_or_rent, status, location, n)
    VALUES (new.city_id, new.post_type, new.sale_or_rent, new.status, coalesce(new.location, ''), 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
