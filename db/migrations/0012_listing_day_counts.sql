CREATE TABLE `listing_day_counts` (
	`city_id` integer NOT NULL,
	`date` text NOT NULL,
	`post_type` text NOT NULL,
	`sale_or_rent` text NOT NULL,
	`status` text NOT NULL,
	`location` text NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`city_id`, `date`, `post_type`, `sale_or_rent`, `status`, `location`)
) WITHOUT ROWID;

--> statement-breakpoint
INSERT INTO `listing_day_counts` (city_id, date, post_type, sale_or_rent, status, location, n)
  SELECT city_id, date, post_type, sale_or_rent, status, coalesce(location, ''), count(*) FROM `listings` GROUP BY 1, 2, 3, 4, 5, 6;
--> statement-breakpoint
INSERT INTO `listing_day_counts` (city_id, date, post_type, sale_or_rent, status, location, n)
  SELECT 0, date, post_type, sale_or_rent, status, coalesce(location, ''), count(*) FROM `listings` GROUP BY 2, 3, 4, 5, 6;
--> statement-breakpoint
CREATE TRIGGER `listing_day_counts_after_insert` AFTER INSERT ON `listings` BEGIN
  INSERT INTO `listing_day_counts` (city_id, date, post_type, sale_or_rent, status, location, n)
    VALUES (new.city_id, new.date, new.post_type, new.sale_or_rent, new.status, coalesce(new.location, ''), 1),
           (0, new.date, new.post_type, new.sale_or_rent, new.status, coalesce(new.location, ''), 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `listing_day_counts_after_delete` AFTER DELETE ON `listings` BEGIN
  UPDATE `listing_day_counts` SET n = n - 1
    WHERE city_id IN (old.city_id, 0) AND date = old.date AND post_type = old.post_type AND sale_or_rent = old.sale_or_rent
      AND status = old.status AND location = coalesce(old.location, '');
END;
--> statement-breakpoint
CREATE TRIGGER `listing_day_counts_after_update` AFTER UPDATE OF city_id, date, post_type, sale_or_rent, status, location ON `listings` BEGIN
  UPDATE `listing_day_counts` SET n = n - 1
    WHERE city_id IN (old.city_id, 0) AND date = old.date AND post_type = old.post_type AND sale_or_rent = old.sale_or_rent
      AND status = old.status AND location = coalesce(old.location, '');
  INSERT INTO `listing_day_counts` (city_id, date, post_type, sale_or_rent, status, location, n)
    VALUES (new.city_id, new.date, new.post_type, new.sale_or_rent, new.status, coalesce(new.location, ''), 1),
           (0, new.date, new.post_type, new.sale_or_rent, new.status, coalesce(new.location, ''), 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
