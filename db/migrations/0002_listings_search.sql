-- Full-text search over listings: entry ID, broker (owner) name, locality, property type, details.
-- Contentless (the text lives in listings and users), kept in step by triggers so every writer — the app, seeds,
-- imports — updates it in the same transaction. rowid is the listing id: newest first is rowid order.
CREATE VIRTUAL TABLE `listings_fts` USING fts5(entry_id, owner_name, locality, property_type, details, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
--> statement-breakpoint
INSERT INTO `listings_fts`(rowid, entry_id, owner_name, locality, property_type, details)
  SELECT l.id, l.entry_id, u.full_name, l.locality, l.property_type, l.details FROM `listings` l JOIN `users` u ON u.id = l.owner_user_id;
--> statement-breakpoint
CREATE TRIGGER `listings_fts_after_insert` AFTER INSERT ON `listings` BEGIN
  INSERT INTO `listings_fts`(rowid, entry_id, owner_name, locality, property_type, details)
    VALUES (new.id, new.entry_id, (SELECT full_name FROM `users` WHERE id = new.owner_user_id), new.locality, new.property_type, new.details);
END;
--> statement-breakpoint
CREATE TRIGGER `listings_fts_after_delete` AFTER DELETE ON `listings` BEGIN
  DELETE FROM `listings_fts` WHERE rowid = old.id;
END;
--> statement-breakpoint
CREATE TRIGGER `listings_fts_after_update` AFTER UPDATE OF entry_id, locality, property_type, details, owner_user_id ON `listings` BEGIN
  DELETE FROM `listings_fts` WHERE rowid = old.id;
  INSERT INTO `listings_fts`(rowid, entry_id, owner_name, locality, property_type, details)
    VALUES (new.id, new.entry_id, (SELECT full_name FROM `users` WHERE id = new.owner_user_id), new.locality, new.property_type, new.details);
END;
--> statement-breakpoint
CREATE TRIGGER `listings_fts_owner_renamed` AFTER UPDATE OF full_name ON `users` BEGIN
  DELETE FROM `listings_fts` WHERE rowid IN (SELECT id FROM `listings` WHERE owner_user_id = new.id);
  INSERT INTO `listings_fts`(rowid, entry_id, owner_name, locality, property_type, details)
    SELECT l.id, l.entry_id, new.full_name, l.locality, l.property_type, l.details FROM `listings` l WHERE l.owner_user_id = new.id;
END;
