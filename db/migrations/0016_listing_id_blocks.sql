CREATE TABLE `listing_id_blocks` (
	`city_id` integer NOT NULL,
	`block` integer NOT NULL,
	`suspended` integer NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`city_id`, `block`, `suspended`)
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `listing_id_blocks` (city_id, block, suspended, n)
  SELECT city_id, id >> 10, status = 'SUSPENDED', count(*) FROM `listings` GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO `listing_id_blocks` (city_id, block, suspended, n)
  SELECT 0, id >> 10, status = 'SUSPENDED', count(*) FROM `listings` GROUP BY 2, 3;
--> statement-breakpoint
CREATE TRIGGER `listing_id_blocks_after_insert` AFTER INSERT ON `listings` BEGIN
  INSERT INTO `listing_id_blocks` (city_id, block, suspended, n)
    VALUES (new.city_id, new.id >> 10, new.status = 'SUSPENDED', 1), (0, new.id >> 10, new.status = 'SUSPENDED', 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `listing_id_blocks_after_delete` AFTER DELETE ON `listings` BEGIN
  UPDATE `listing_id_blocks` SET n = n - 1
    WHERE city_id IN (old.city_id, 0) AND block = old.id >> 10 AND suspended = (old.status = 'SUSPENDED');
END;
--> statement-breakpoint
CREATE TRIGGER `listing_id_blocks_after_update` AFTER UPDATE OF city_id, status ON `listings`
  WHEN old.city_id <> new.city_id OR (old.status = 'SUSPENDED') <> (new.status = 'SUSPENDED') BEGIN
  UPDATE `listing_id_blocks` SET n = n - 1
    WHERE city_id IN (old.city_id, 0) AND block = old.id >> 10 AND suspended = (old.status = 'SUSPENDED');
  INSERT INTO `listing_id_blocks` (city_id, block, suspended, n)
    VALUES (new.city_id, new.id >> 10, new.status = 'SUSPENDED', 1), (0, new.id >> 10, new.status = 'SUSPENDED', 1)
    ON CONFLICT DO UPDATE SET n = n + 1;
END;
