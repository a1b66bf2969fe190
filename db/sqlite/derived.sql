-- What SQLite keeps by triggers from listings and cities, in the writer's own transaction, so that every writer (the
-- app, seeds, imports, an operator's sqlite3) keeps it the same way: the kept counts (docs/decisions/007-kept-counts.md)
-- and the inbox's live flag (docs/decisions/010-matching.md). Migrations 0003-0018 built these piece by piece; this is
-- their current definition, once. The newest migration named derived (0023_derived at first; 0030_derived adds expired
-- listings' class to the id blocks) is this file word for word: a change here is a new one, `bunx drizzle-kit generate
-- --custom --name derived` filled with this file (docs/decisions/014-derived-data-files.md). The tables are in db/schema.ts; PostgreSQL's: db/pg/derived.sql.
--
-- A count takes 1 from the key of a listing's old row and adds 1 to its new row's, under the listing's city and under
-- the network (city 0). A key whose n falls to 0 stays.

-- Totals and zone chips of any mix of place, type, deal, status, zone ('' for none) and property type (lower case).
DROP TRIGGER IF EXISTS `listing_counts_after_insert`;
--> statement-breakpoint
CREATE TRIGGER `listing_counts_after_insert` AFTER INSERT ON `listings` BEGIN
  INSERT INTO `listing_counts` (city_id, post_type, sale_or_rent, status, location, property_type, n)
    VALUES (new.city_id, new.post_type, new.sale_or_rent, new.status, coalesce(new.location, ''), lower(new.property_type), 1),
           (0, new.post_type, new.sale_or_rent, new.status, coalesce(new.location, ''), lower(new.property_type), 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `listing_counts_after_delete`;
--> statement-breakpoint
CREATE TRIGGER `listing_counts_after_delete` AFTER DELETE ON `listings` BEGIN
  UPDATE `listing_counts` SET n = n - 1
    WHERE city_id IN (old.city_id, 0) AND post_type = old.post_type AND sale_or_rent = old.sale_or_rent AND status = old.status
      AND location = coalesce(old.location, '') AND property_type = lower(old.property_type);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `listing_counts_after_update`;
--> statement-breakpoint
CREATE TRIGGER `listing_counts_after_update` AFTER UPDATE OF city_id, post_type, sale_or_rent, status, location, property_type ON `listings` BEGIN
  UPDATE `listing_counts` SET n = n - 1
    WHERE city_id IN (old.city_id, 0) AND post_type = old.post_type AND sale_or_rent = old.sale_or_rent AND status = old.status
      AND location = coalesce(old.location, '') AND property_type = lower(old.property_type);
  INSERT INTO `listing_counts` (city_id, post_type, sale_or_rent, status, location, property_type, n)
    VALUES (new.city_id, new.post_type, new.sale_or_rent, new.status, coalesce(new.location, ''), lower(new.property_type), 1),
           (0, new.post_type, new.sale_or_rent, new.status, coalesce(new.location, ''), lower(new.property_type), 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
-- The same by day, without the property type: totals of a date range.
DROP TRIGGER IF EXISTS `listing_day_counts_after_insert`;
--> statement-breakpoint
CREATE TRIGGER `listing_day_counts_after_insert` AFTER INSERT ON `listings` BEGIN
  INSERT INTO `listing_day_counts` (city_id, date, post_type, sale_or_rent, status, location, n)
    VALUES (new.city_id, new.date, new.post_type, new.sale_or_rent, new.status, coalesce(new.location, ''), 1),
           (0, new.date, new.post_type, new.sale_or_rent, new.status, coalesce(new.location, ''), 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `listing_day_counts_after_delete`;
--> statement-breakpoint
CREATE TRIGGER `listing_day_counts_after_delete` AFTER DELETE ON `listings` BEGIN
  UPDATE `listing_day_counts` SET n = n - 1
    WHERE city_id IN (old.city_id, 0) AND date = old.date AND post_type = old.post_type AND sale_or_rent = old.sale_or_rent
      AND status = old.status AND location = coalesce(old.location, '');
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `listing_day_counts_after_update`;
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
--> statement-breakpoint
-- Listings per day and type (trends, "new posts today") and per owner and city (top brokers; no network rows).
DROP TRIGGER IF EXISTS `analytics_counts_after_insert`;
--> statement-breakpoint
CREATE TRIGGER `analytics_counts_after_insert` AFTER INSERT ON `listings` BEGIN
  INSERT INTO `listing_daily_counts` (date, city_id, post_type, n) VALUES (new.date, new.city_id, new.post_type, 1), (new.date, 0, new.post_type, 1) ON CONFLICT DO UPDATE SET n = n + 1;
  INSERT INTO `owner_listing_counts` (owner_user_id, city_id, n) VALUES (new.owner_user_id, new.city_id, 1) ON CONFLICT DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `analytics_counts_after_delete`;
--> statement-breakpoint
CREATE TRIGGER `analytics_counts_after_delete` AFTER DELETE ON `listings` BEGIN
  UPDATE `listing_daily_counts` SET n = n - 1 WHERE date = old.date AND city_id IN (old.city_id, 0) AND post_type = old.post_type;
  UPDATE `owner_listing_counts` SET n = n - 1 WHERE owner_user_id = old.owner_user_id AND city_id = old.city_id;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `analytics_counts_after_update`;
--> statement-breakpoint
CREATE TRIGGER `analytics_counts_after_update` AFTER UPDATE OF date, city_id, post_type, owner_user_id ON `listings` BEGIN
  UPDATE `listing_daily_counts` SET n = n - 1 WHERE date = old.date AND city_id IN (old.city_id, 0) AND post_type = old.post_type;
  INSERT INTO `listing_daily_counts` (date, city_id, post_type, n) VALUES (new.date, new.city_id, new.post_type, 1), (new.date, 0, new.post_type, 1) ON CONFLICT DO UPDATE SET n = n + 1;
  UPDATE `owner_listing_counts` SET n = n - 1 WHERE owner_user_id = old.owner_user_id AND city_id = old.city_id;
  INSERT INTO `owner_listing_counts` (owner_user_id, city_id, n) VALUES (new.owner_user_id, new.city_id, 1) ON CONFLICT DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
-- Listings per block of 1,024 ids, by class (the column `suspended`): 0 shown, 1 suspended, 2 expired (issue 17). Where a
-- deep page starts.
DROP TRIGGER IF EXISTS `listing_id_blocks_after_insert`;
--> statement-breakpoint
CREATE TRIGGER `listing_id_blocks_after_insert` AFTER INSERT ON `listings` BEGIN
  INSERT INTO `listing_id_blocks` (city_id, block, suspended, n)
    VALUES (new.city_id, new.id >> 10, CASE new.status WHEN 'SUSPENDED' THEN 1 WHEN 'EXPIRED' THEN 2 ELSE 0 END, 1), (0, new.id >> 10, CASE new.status WHEN 'SUSPENDED' THEN 1 WHEN 'EXPIRED' THEN 2 ELSE 0 END, 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `listing_id_blocks_after_delete`;
--> statement-breakpoint
CREATE TRIGGER `listing_id_blocks_after_delete` AFTER DELETE ON `listings` BEGIN
  UPDATE `listing_id_blocks` SET n = n - 1
    WHERE city_id IN (old.city_id, 0) AND block = old.id >> 10 AND suspended = (CASE old.status WHEN 'SUSPENDED' THEN 1 WHEN 'EXPIRED' THEN 2 ELSE 0 END);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `listing_id_blocks_after_update`;
--> statement-breakpoint
CREATE TRIGGER `listing_id_blocks_after_update` AFTER UPDATE OF city_id, status ON `listings`
  WHEN old.city_id <> new.city_id OR (CASE old.status WHEN 'SUSPENDED' THEN 1 WHEN 'EXPIRED' THEN 2 ELSE 0 END) <> (CASE new.status WHEN 'SUSPENDED' THEN 1 WHEN 'EXPIRED' THEN 2 ELSE 0 END) BEGIN
  UPDATE `listing_id_blocks` SET n = n - 1
    WHERE city_id IN (old.city_id, 0) AND block = old.id >> 10 AND suspended = (CASE old.status WHEN 'SUSPENDED' THEN 1 WHEN 'EXPIRED' THEN 2 ELSE 0 END);
  INSERT INTO `listing_id_blocks` (city_id, block, suspended, n)
    VALUES (new.city_id, new.id >> 10, CASE new.status WHEN 'SUSPENDED' THEN 1 WHEN 'EXPIRED' THEN 2 ELSE 0 END, 1), (0, new.id >> 10, CASE new.status WHEN 'SUSPENDED' THEN 1 WHEN 'EXPIRED' THEN 2 ELSE 0 END, 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
-- Whether an inbox entry's pair still holds, judged again when a column of the rule changes on either listing or the
-- city's tolerance changes. The rule is a copy of pairMatchesSql (src/modules/matches/rules.ts); tests/unit/match-live.test.ts
-- fails when the two part.
DROP TRIGGER IF EXISTS `listing_matches_live_listing`;
--> statement-breakpoint
CREATE TRIGGER `listing_matches_live_listing` AFTER UPDATE OF status, city_id, sale_or_rent, post_type, property_type, budget, size ON `listings` BEGIN
  UPDATE `listing_matches` SET live = coalesce((SELECT a.status = 'ACTIVE' and b.status = 'ACTIVE' and a.city_id = b.city_id and a.sale_or_rent = b.sale_or_rent and a.post_type <> b.post_type and a.property_key = b.property_key and case when a.post_type = 'REQ' then (a.budget is null or b.budget is null or b.budget * 100 <= a.budget * (100 + c.match_tolerance)) and (a.size is null or b.size is null or b.size * 100 >= a.size * 85) else (b.budget is null or a.budget is null or a.budget * 100 <= b.budget * (100 + c.match_tolerance)) and (b.size is null or a.size is null or a.size * 100 >= b.size * 85) end FROM listings a JOIN listings b ON b.id = listing_matches.match_id JOIN cities c ON c.id = a.city_id WHERE a.id = listing_matches.listing_id), 0)
  WHERE (listing_id = new.id OR match_id = new.id) AND live IS NOT coalesce((SELECT a.status = 'ACTIVE' and b.status = 'ACTIVE' and a.city_id = b.city_id and a.sale_or_rent = b.sale_or_rent and a.post_type <> b.post_type and a.property_key = b.property_key and case when a.post_type = 'REQ' then (a.budget is null or b.budget is null or b.budget * 100 <= a.budget * (100 + c.match_tolerance)) and (a.size is null or b.size is null or b.size * 100 >= a.size * 85) else (b.budget is null or a.budget is null or a.budget * 100 <= b.budget * (100 + c.match_tolerance)) and (b.size is null or a.size is null or a.size * 100 >= b.size * 85) end FROM listings a JOIN listings b ON b.id = listing_matches.match_id JOIN cities c ON c.id = a.city_id WHERE a.id = listing_matches.listing_id), 0);
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `listing_matches_live_city`;
--> statement-breakpoint
CREATE TRIGGER `listing_matches_live_city` AFTER UPDATE OF match_tolerance ON `cities` BEGIN
  UPDATE `listing_matches` SET live = coalesce((SELECT a.status = 'ACTIVE' and b.status = 'ACTIVE' and a.city_id = b.city_id and a.sale_or_rent = b.sale_or_rent and a.post_type <> b.post_type and a.property_key = b.property_key and case when a.post_type = 'REQ' then (a.budget is null or b.budget is null or b.budget * 100 <= a.budget * (100 + c.match_tolerance)) and (a.size is null or b.size is null or b.size * 100 >= a.size * 85) else (b.budget is null or a.budget is null or a.budget * 100 <= b.budget * (100 + c.match_tolerance)) and (b.size is null or a.size is null or a.size * 100 >= b.size * 85) end FROM listings a JOIN listings b ON b.id = listing_matches.match_id JOIN cities c ON c.id = a.city_id WHERE a.id = listing_matches.listing_id), 0)
  WHERE listing_id IN (SELECT id FROM `listings` WHERE city_id = new.id) AND live IS NOT coalesce((SELECT a.status = 'ACTIVE' and b.status = 'ACTIVE' and a.city_id = b.city_id and a.sale_or_rent = b.sale_or_rent and a.post_type <> b.post_type and a.property_key = b.property_key and case when a.post_type = 'REQ' then (a.budget is null or b.budget is null or b.budget * 100 <= a.budget * (100 + c.match_tolerance)) and (a.size is null or b.size is null or b.size * 100 >= a.size * 85) else (b.budget is null or a.budget is null or a.budget * 100 <= b.budget * (100 + c.match_tolerance)) and (b.size is null or a.size is null or a.size * 100 >= b.size * 85) end FROM listings a JOIN listings b ON b.id = listing_matches.match_id JOIN cities c ON c.id = a.city_id WHERE a.id = listing_matches.listing_id), 0);
END;
