-- Network-wide counts under city_id 0 (no city has id 0): a total without a place filter sums about a hundred rows,
-- not tens of thousands.
INSERT INTO `listing_counts` (city_id, post_type, sale_or_rent, status, location, n)
  SELECT 0, post_type, sale_or_rent, status, coalesce(location, ''), count(*) FROM `listings` GROUP BY 2, 3, 4, 5;
--> statement-breakpoint
DROP TRIGGER `listing_counts_after_insert`;
--> statement-breakpoint
DROP TRIGGER `listing_counts_after_delete`;
--> statement-breakpoint
DROP TRIGGER `listing_counts_after_update`;
--> statement-breakpoint
CREATE TRIGGER `listing_counts_after_insert` AFTER INSERT ON `listings` BEGIN
  INSERT INTO `listing_counts` (city_id, post_type, sale_or_rent, status, location, n)
    VALUES (new.city_id, new.post_type, new.sale_or_rent, new.status, coalesce(new.location, ''), 1),
           (0, new.post_type, new.sale_or_rent, new.status, coalesce(new.location, ''), 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `listing_counts_after_delete` AFTER DELETE ON `listings` BEGIN
  UPDATE `listing_counts` SET n = n - 1
    WHERE city_id IN (old.city_id, 0) AND post_type = old.post_type AND sale_or_rent = old.sale_or_rent AND status = old.status AND location = coalesce(old.location, '');
END;
--> statement-breakpoint
CREATE TRIGGER `listing_counts_after_update` AFTER UPDATE OF city_id, post_type, sale_or_rent, status, location ON `listings` BEGIN
  UPDATE `listing_counts` SET n = n - 1
    WHERE city_id IN (old.city_id, 0) AND post_type = old.post_type AND sale_or_rent = old.sale_or_rent AND status = old.status AND location = coalesce(old.location, '');
  INSERT INTO `listing_counts` (city_id, post_type, sale_or_rent, status, location, n)
    VALUES (new.city_id, new.post_type, new.sale_or_rent, new.status, coalesce(new.location, ''), 1),
           (0, new.post_type, new.sale_or_rent, new.status, coalesce(new.location, ''), 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
-- The suspended listings' own search index (a few percent of all): a broker's search total is everything matching
-- minus the suspended matches of other brokers, without reading every match's row to learn its status.
CREATE VIRTUAL TABLE `listings_fts_suspended` USING fts5(entry_id, owner_name, locality, property_type, details, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO `listings_fts_suspended`(rowid, entry_id, owner_name, locality, property_type, details)
  SELECT l.id, l.entry_id, u.full_name, l.locality, l.property_type, l.details FROM `listings` l JOIN `users` u ON u.id = l.owner_user_id WHERE l.status = 'SUSPENDED';
--> statement-breakpoint
CREATE TRIGGER `listings_fts_suspended_after_insert` AFTER INSERT ON `listings` WHEN new.status = 'SUSPENDED' BEGIN
  INSERT INTO `listings_fts_suspended`(rowid, entry_id, owner_name, locality, property_type, details)
    VALUES (new.id, new.entry_id, (SELECT full_name FROM `users` WHERE id = new.owner_user_id), new.locality, new.property_type, new.details);
END;
--> statement-breakpoint
CREATE TRIGGER `listings_fts_suspended_after_delete` AFTER DELETE ON `listings` WHEN old.status = 'SUSPENDED' BEGIN
  DELETE FROM `listings_fts_suspended` WHERE rowid = old.id;
END;
--> statement-breakpoint
CREATE TRIGGER `listings_fts_suspended_after_update` AFTER UPDATE OF status, entry_id, locality, property_type, details, owner_user_id ON `listings`
  WHEN old.status = 'SUSPENDED' OR new.status = 'SUSPENDED' BEGIN
  DELETE FROM `listings_fts_suspended` WHERE rowid = old.id AND old.status = 'SUSPENDED';
  INSERT INTO `listings_fts_suspended`(rowid, entry_id, owner_name, locality, property_type, details)
    SELECT new.id, new.entry_id, (SELECT full_name FROM `users` WHERE id = new.owner_user_id), new.locality, new.property_type, new.details
    WHERE new.status = 'SUSPENDED';
END;
--> statement-breakpoint
CREATE TRIGGER `listings_fts_suspended_owner_renamed` AFTER UPDATE OF full_name ON `users` BEGIN
  DELETE FROM `listings_fts_suspended` WHERE rowid IN (SELECT id FROM `listings` WHERE owner_user_id = new.id AND status = 'SUSPENDED');
  INSERT INTO `listings_fts_suspended`(rowid, entry_id, owner_name, locality, property_type, details)
    SELECT l.id, l.entry_id, new.full_name, l.locality, l.property_type, l.details FROM `listings` l WHERE l.owner_user_id = new.id AND l.status = 'SUSPENDED';
END;
