-- Network-wide days under city_id 0 (no city has id 0): a master admin's year of trends reads 730 rows, not 146,000.
INSERT INTO `listing_daily_counts` (date, city_id, post_type, n) SELECT date, 0, post_type, count(*) FROM `listings` GROUP BY 1, 3;
--> statement-breakpoint
DROP TRIGGER `analytics_counts_after_insert`;
--> statement-breakpoint
DROP TRIGGER `analytics_counts_after_delete`;
--> statement-breakpoint
DROP TRIGGER `analytics_counts_after_update`;
--> statement-breakpoint
CREATE TRIGGER `analytics_counts_after_insert` AFTER INSERT ON `listings` BEGIN
  INSERT INTO `listing_daily_counts` (date, city_id, post_type, n) VALUES (new.date, new.city_id, new.post_type, 1), (new.date, 0, new.post_type, 1) ON CONFLICT DO UPDATE SET n = n + 1;
  INSERT INTO `owner_listing_counts` (owner_user_id, city_id, n) VALUES (new.owner_user_id, new.city_id, 1) ON CONFLICT DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `analytics_counts_after_delete` AFTER DELETE ON `listings` BEGIN
  UPDATE `listing_daily_counts` SET n = n - 1 WHERE date = old.date AND city_id IN (old.city_id, 0) AND post_type = old.post_type;
  UPDATE `owner_listing_counts` SET n = n - 1 WHERE owner_user_id = old.owner_user_id AND city_id = old.city_id;
END;
--> statement-breakpoint
CREATE TRIGGER `analytics_counts_after_update` AFTER UPDATE OF date, city_id, post_type, owner_user_id ON `listings` BEGIN
  UPDATE `listing_daily_counts` SET n = n - 1 WHERE date = old.date AND city_id IN (old.city_id, 0) AND post_type = old.post_type;
  INSERT INTO `listing_daily_counts` (date, city_id, post_type, n) VALUES (new.date, new.city_id, new.post_type, 1), (new.date, 0, new.post_type, 1) ON CONFLICT DO UPDATE SET n = n + 1;
  UPDATE `owner_listing_counts` SET n = n - 1 WHERE owner_user_id = old.owner_user_id AND city_id = old.city_id;
  INSERT INTO `owner_listing_counts` (owner_user_id, city_id, n) VALUES (new.owner_user_id, new.city_id, 1) ON CONFLICT DO UPDATE SET n = n + 1;
END;
