-- The full-text search indexes, kept by triggers in the writer's own transaction (docs/decisions/008-search-tags.md).
-- listings_fts holds every listing; listings_fts_suspended the suspended ones (a broker's total of a search is its
-- matches less other brokers' suspended matches). Both are contentless FTS5 tables (migration 0015) whose rowid is the
-- listing's id: the five searched texts (entry ID, owner's name, locality, property type, details) and the tags a search
-- is combined with, c<city> t<post type> d<deal> s<status without underscores> z<zone> in lower case. A change deletes
-- a listing's row and inserts it again; renaming a user rewrites their listings' rows.
-- Migrations 0002, 0008 and 0015 built these; this is their current definition, once. The newest migration named search
-- (db/migrations/0024_search.sql at first) is this file word for word: a change here is a new one, filled with this
-- file (docs/decisions/014-derived-data-files.md). PostgreSQL's search: db/pg/search.sql.

-- Every listing.
DROP TRIGGER IF EXISTS `listings_fts_after_insert`;
--> statement-breakpoint
CREATE TRIGGER `listings_fts_after_insert` AFTER INSERT ON `listings` BEGIN
  INSERT INTO `listings_fts`(rowid, entry_id, owner_name, locality, property_type, details, tags)
    VALUES (new.id, new.entry_id, (SELECT full_name FROM `users` WHERE id = new.owner_user_id), new.locality, new.property_type, new.details, concat_ws(' ', 'c' || new.city_id, 't' || lower(new.post_type), 'd' || lower(new.sale_or_rent), 's' || lower(replace(new.status, '_', '')), 'z' || lower(new.location)));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `listings_fts_after_delete`;
--> statement-breakpoint
CREATE TRIGGER `listings_fts_after_delete` AFTER DELETE ON `listings` BEGIN
  DELETE FROM `listings_fts` WHERE rowid = old.id;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `listings_fts_after_update`;
--> statement-breakpoint
CREATE TRIGGER `listings_fts_after_update` AFTER UPDATE OF entry_id, locality, property_type, details, owner_user_id, city_id, post_type, sale_or_rent, status, location ON `listings` BEGIN
  DELETE FROM `listings_fts` WHERE rowid = old.id;
  INSERT INTO `listings_fts`(rowid, entry_id, owner_name, locality, property_type, details, tags)
    VALUES (new.id, new.entry_id, (SELECT full_name FROM `users` WHERE id = new.owner_user_id), new.locality, new.property_type, new.details, concat_ws(' ', 'c' || new.city_id, 't' || lower(new.post_type), 'd' || lower(new.sale_or_rent), 's' || lower(replace(new.status, '_', '')), 'z' || lower(new.location)));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `listings_fts_owner_renamed`;
--> statement-breakpoint
CREATE TRIGGER `listings_fts_owner_renamed` AFTER UPDATE OF full_name ON `users` BEGIN
  DELETE FROM `listings_fts` WHERE rowid IN (SELECT id FROM `listings` WHERE owner_user_id = new.id);
  INSERT INTO `listings_fts`(rowid, entry_id, owner_name, locality, property_type, details, tags)
    SELECT l.id, l.entry_id, new.full_name, l.locality, l.property_type, l.details, concat_ws(' ', 'c' || l.city_id, 't' || lower(l.post_type), 'd' || lower(l.sale_or_rent), 's' || lower(replace(l.status, '_', '')), 'z' || lower(l.location)) FROM `listings` l WHERE l.owner_user_id = new.id;
END;
--> statement-breakpoint
-- Suspended listings only.
DROP TRIGGER IF EXISTS `listings_fts_suspended_after_insert`;
--> statement-breakpoint
CREATE TRIGGER `listings_fts_suspended_after_insert` AFTER INSERT ON `listings` WHEN new.status = 'SUSPENDED' BEGIN
  INSERT INTO `listings_fts_suspended`(rowid, entry_id, owner_name, locality, property_type, details, tags)
    VALUES (new.id, new.entry_id, (SELECT full_name FROM `users` WHERE id = new.owner_user_id), new.locality, new.property_type, new.details, concat_ws(' ', 'c' || new.city_id, 't' || lower(new.post_type), 'd' || lower(new.sale_or_rent), 's' || lower(replace(new.status, '_', '')), 'z' || lower(new.location)));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `listings_fts_suspended_after_delete`;
--> statement-breakpoint
CREATE TRIGGER `listings_fts_suspended_after_delete` AFTER DELETE ON `listings` WHEN old.status = 'SUSPENDED' BEGIN
  DELETE FROM `listings_fts_suspended` WHERE rowid = old.id;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `listings_fts_suspended_after_update`;
--> statement-breakpoint
CREATE TRIGGER `listings_fts_suspended_after_update` AFTER UPDATE OF entry_id, locality, property_type, details, owner_user_id, city_id, post_type, sale_or_rent, status, location ON `listings`
  WHEN old.status = 'SUSPENDED' OR new.status = 'SUSPENDED' BEGIN
  DELETE FROM `listings_fts_suspended` WHERE rowid = old.id AND old.status = 'SUSPENDED';
  INSERT INTO `listings_fts_suspended`(rowid, entry_id, owner_name, locality, property_type, details, tags)
    SELECT new.id, new.entry_id, (SELECT full_name FROM `users` WHERE id = new.owner_user_id), new.locality, new.property_type, new.details, concat_ws(' ', 'c' || new.city_id, 't' || lower(new.post_type), 'd' || lower(new.sale_or_rent), 's' || lower(replace(new.status, '_', '')), 'z' || lower(new.location))
    WHERE new.status = 'SUSPENDED';
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `listings_fts_suspended_owner_renamed`;
--> statement-breakpoint
CREATE TRIGGER `listings_fts_suspended_owner_renamed` AFTER UPDATE OF full_name ON `users` BEGIN
  DELETE FROM `listings_fts_suspended` WHERE rowid IN (SELECT id FROM `listings` WHERE owner_user_id = new.id AND status = 'SUSPENDED');
  INSERT INTO `listings_fts_suspended`(rowid, entry_id, owner_name, locality, property_type, details, tags)
    SELECT l.id, l.entry_id, new.full_name, l.locality, l.property_type, l.details, concat_ws(' ', 'c' || l.city_id, 't' || lower(l.post_type), 'd' || lower(l.sale_or_rent), 's' || lower(replace(l.status, '_', '')), 'z' || lower(l.location)) FROM `listings` l WHERE l.owner_user_id = new.id AND l.status = 'SUSPENDED';
END;
