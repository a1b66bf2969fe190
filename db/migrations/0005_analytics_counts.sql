CREATE TABLE `listing_daily_counts` (
	`date` text NOT NULL,
	`city_id` integer NOT NULL,
	`post_type` text NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`date`, `city_id`, `post_type`)
);
--> statement-breakpoint
CREATE INDEX `listing_daily_counts_city_idx` ON `listing_daily_counts` (`city_id`,`date`);--> statement-breakpoint
CREATE TABLE `owner_listing_counts` (
	`owner_user_id` integer NOT NULL,
	`city_id` integer NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`owner_user_id`, `city_id`)
);
--> statement-breakpoint
CREATE INDEX `owner_listing_counts_city_idx` ON `owner_listing_counts` (`city_id`,`n`);--> statement-breakpoint
INSERT INTO `listing_daily_counts` (date, city_id, post_type, n) SELECT date, city_id, post_type, count(*) FROM `listings` GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO `owner_listing_counts` (owner_user_id, city_id, n) SELECT owner_user_id, city_id, count(*) FROM `listings` GROUP BY 1, 2;
--> statement-breakpoint
CREATE TRIGGER `analytics_counts_after_insert` AFTER INSERT ON `listings` BEGIN
  INSERT INTO `listing_daily_counts` (date, city_id, post_type, n) VALUES (new.date, new.city_id, new.post_type, 1) ON CONFLICT DO UPDATE SET n = n + 1;
  INSERT INTO `owner_listing_counts` (owner_user_id, city_id, n) VALUES (new.owner_user_id, new.city_id, 1) ON CONFLICT DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `analytics_counts_after_delete` AFTER DELETE ON `listings` BEGIN
  UPDATE `listing_daily_counts` SET n = n - 1 WHERE date = old.date AND city_id = old.city_id AND post_type = old.post_type;
  UPDATE `owner_listing_counts` SET n = n - 1 WHERE owner_user_id = old.owner_user_id AND city_id = old.city_id;
END;
--> statement-breakpoint
CREATE TRIGGER `analytics_counts_after_update` AFTER UPDATE OF date, city_id, post_type, owner_user_id ON `listings` BEGIN
  UPDATE `listing_daily_counts` SET n = n - 1 WHERE date = old.date AND city_id = old.city_id AND post_type = old.post_type;
  INSERT INTO `listing_daily_counts` (date, city_id, post_type, n) VALUES (new.date, new.city_id, new.post_type, 1) ON CONFLICT DO UPDATE SET n = n + 1;
  UPDATE `owner_listing_counts` SET n = n - 1 WHERE owner_user_id = old.owner_user_id AND city_id = old.city_id;
  INSERT INTO `owner_listing_counts` (owner_user_id, city_id, n) VALUES (new.owner_user_id, new.city_id, 1) ON CONFLICT DO UPDATE SET n = n + 1;
END;
