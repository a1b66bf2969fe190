-- The search indexes carry the filters a search is combined with, as tags in a column of their own (decision record
-- 008): city `c12`, post type `tavl`, deal `dsale`, status `sonhold`, zone `znorth`. "A word in Mumbai" is then one
-- FTS5 query, `tags : (c12) AND {text columns} : ("word"*)`, that merges two lists of ids inside the index, instead of
-- reading every listing the word matches to learn its city (88,000 rows: 50 ms over HTTP at a million listings).
-- FTS5 tables cannot gain a column: both are rebuilt.
DROP TRIGGER `listings_fts_after_insert`;
--> statement-breakpoint
DROP TRIGGER `listings_fts_after_delete`;
--> statement-breakpoint
DROP TRIGGER `listings_fts_after_update`;
--> statement-breakpoint
DROP TRIGGER `listings_fts_owner_renamed`;
--> statement-breakpoint
DROP TRIGGER `listings_fts_suspended_after_insert`;
--> statement-breakpoint
DROP TRIGGER `listings_fts_suspended_after_delete`;
--> statement-breakpoint
DROP TRIGGER `listings_fts_suspended_after_update`;
--> statement-breakpoint
DROP TRIGGER `listings_fts_suspended_owner_renamed`;
--> statement-breakpoint
DROP TABLE `listings_fts`;
--> statement-breakpoint
DROP TABLE `listings_fts_suspended`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `listings_fts` USING fts5(entry_id, owner_name, locality, property_type, details, tags, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO `listings_fts`(rowid, entry_id, owner_name, locality, property_type, details, tags)
  SELECT l.id, l.entry_id, u.full_name, l.locality, l.property_type, l.details, concat_ws(' ', 'c' || l.city_id, 't' || lower(l.post_type), 'd' || lower(l.sale_or_rent), 's' || lower(replace(l.status, '_', '')), 'z' || lower(l.location)) FROM `listings` l JOIN `users` u ON u.id = l.owner_user_id ORDER BY l.id;
--> statement-breakpoint
CREATE VIRTUAL TABLE `listings_fts_suspended` USING fts5(entry_id, owner_name, locality, property_type, details, tags, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO `listings_fts_suspended`(rowid, entry_id, owner_name, locality, property_type, details, tags)
  SELECT l.id, l.entry_id, u.full_name, l.locality, l.property_type, l.details, concat_ws(' ', 'c' || l.city_id, 't' || lower(l.post_type), 'd' || lower(l.sale_or_rent), 's' || lower(replace(l.status, '_', '')), 'z' || lower(l.location)) FROM `listings` l JOIN `users` u ON u.id = l.owner_user_id WHERE l.status = 'SUSPENDED' ORDER BY l.id;
--> statement-breakpoint
CREATE TRIGGER `listings_fts_after_insert` AFTER INSERT ON `listings` BEGIN
  INSERT INTO `listings_fts`(rowid, entry_id, owner_name, locality, property_type, details, tags)
    VALUES (new.id, new.entry_id, (SELECT full_name FROM `users` WHERE id = new.owner_user_id), new.locality, new.property_type, new.details, concat_ws(' ', 'c' || new.city_id, 't' || lower(new.post_type), 'd' || lower(new.sale_or_rent), 's' || lower(replace(new.status, '_', '')), 'z' || lower(new.location)));
END;
--> statement-breakpoint
CREATE TRIGGER `listings_fts_after_delete` AFTER DELETE ON `listings` BEGIN
  DELETE FROM `listings_fts` WHERE rowid = old.id;
END;
--> statement-breakpoint
CREATE TRIGGER `listings_fts_after_update` AFTER UPDATE OF entry_id, locality, property_type, details, owner_user_id, city_id, post_type, sale_or_rent, status, location ON `listings` BEGIN
  DELETE FROM `listings_fts` WHERE rowid = old.id;
  INSERT INTO `listings_fts`(rowid, entry_id, owner_name, locality, property_type, details, tags)
    VALUES (new.id, new.entry_id, (SELECT full_name FROM `users` WHERE id = new.owner_user_id), new.locality, new.property_type, new.details, concat_ws(' ', 'c' || new.city_id, 't' || lower(new.post_type), 'd' || lower(new.sale_or_rent), 's' || lower(replace(new.status, '_', '')), 'z' || lower(new.location)));
END;
--> statement-breakpoint
CREATE TRIGGER `listings_fts_owner_renamed` AFTER UPDATE OF full_name ON `users` BEGIN
  DELETE FROM `listings_fts` WHERE rowid IN (SELECT id FROM `listings` WHERE owner_user_id = new.id);
  INSERT INTO `listings_fts`(rowid, entry_id, owner_name, locality, property_type, details, tags)
    SELECT l.id, l.entry_id, new.full_name, l.locality, l.property_type, l.details, concat_ws(' ', 'c' || l.city_id, 't' || lower(l.post_type), 'd' || lower(l.sale_or_rent), 's' || lower(replace(l.status, '_', '')), 'z' || lower(l.location)) FROM `listings` l WHERE l.owner_user_id = new.id;
END;
--> statement-breakpoint
CREATE TRIGGER `listings_fts_suspended_after_insert` AFTER INSERT ON `listings` WHEN new.status = 'SUSPENDED' BEGIN
  INSERT INTO `listings_fts_suspended`(rowid, entry_id, owner_name, locality, property_type, details, tags)
    VALUES (new.id, new.entry_id, (SELECT full_name FROM `users` WHERE id = new.owner_user_id), new.locality, new.property_type, new.details, concat_ws(' ', 'c' || new.city_id, 't' || lower(new.post_type), 'd' || lower(new.sale_or_rent), 's' || lower(replace(new.status, '_', '')), 'z' || lower(new.location)));
END;
--> statement-breakpoint
CREATE TRIGGER `listings_fts_suspended_after_delete` AFTER DELETE ON `listings` WHEN old.status = 'SUSPENDED' BEGIN
  DELETE FROM `listings_fts_suspended` WHERE rowid = old.id;
END;
--> statement-breakpoint
CREATE TRIGGER `listings_fts_suspended_after_update` AFTER UPDATE OF entry_id, locality, property_type, details, owner_user_id, city_id, post_type, sale_or_rent, status, location ON `listings`
  WHEN old.status = 'SUSPENDED' OR new.status = 'SUSPENDED' BEGIN
  DELETE FROM `listings_fts_suspended` WHERE rowid = old.id AND old.status = 'SUSPENDED';
  INSERT INTO `listings_fts_suspended`(rowid, entry_id, owner_name, locality, property_type, details, tags)
    SELECT new.id, new.entry_id, (SELECT full_name FROM `users` WHERE id = new.owner_user_id), new.locality, new.property_type, new.details, concat_ws(' ', 'c' || new.city_id, 't' || lower(new.post_type), 'd' || lower(new.sale_or_rent), 's' || lower(replace(new.status, '_', '')), 'z' || lower(new.location))
    WHERE new.status = 'SUSPENDED';
END;
--> statement-breakpoint
CREATE TRIGGER `listings_fts_suspended_owner_renamed` AFTER UPDATE OF full_name ON `users` BEGIN
  DELETE FROM `listings_fts_suspended` WHERE rowid IN (SELECT id FROM `listings` WHERE owner_user_id = new.id AND status = 'SUSPENDED');
  INSERT INTO `listings_fts_suspended`(rowid, entry_id, owner_name, locality, property_type, details, tags)
    SELECT l.id, l.entry_id, new.full_name, l.locality, l.property_type, l.details, concat_ws(' ', 'c' || l.city_id, 't' || lower(l.post_type), 'd' || lower(l.sale_or_rent), 's' || lower(replace(l.status, '_', '')), 'z' || lower(l.location)) FROM `listings` l WHERE l.owner_user_id = new.id AND l.status = 'SUSPENDED';
END;
