DROP INDEX `listing_matches_inbox_idx`;--> statement-breakpoint
DROP INDEX `listing_matches_unseen_idx`;--> statement-breakpoint
ALTER TABLE `listing_matches` ADD `live` integer DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX `listing_matches_inbox_idx` ON `listing_matches` (`user_id`,`live`,`dismissed_at`,`id`);--> statement-breakpoint
CREATE INDEX `listing_matches_unseen_idx` ON `listing_matches` (`user_id`,`live`,`dismissed_at`,`seen_at`);
--> statement-breakpoint
-- Whether each pair holds, judged by the rule of src/modules/matches/rules.ts (pairMatchesSql, copied here as it is
-- today: tests/unit/match-live.test.ts fails if the two part). Kept by the triggers below for every writer.
UPDATE `listing_matches` SET live = coalesce((SELECT a.status = 'ACTIVE' and b.status = 'ACTIVE' and a.city_id = b.city_id and a.sale_or_rent = b.sale_or_rent and a.post_type <> b.post_type and a.property_key = b.property_key and case when a.post_type = 'REQ' then (a.budget is null or b.budget is null or b.budget * 100 <= a.budget * (100 + c.match_tolerance)) and (a.size is null or b.size is null or b.size * 100 >= a.size * 85) else (b.budget is null or a.budget is null or a.budget * 100 <= b.budget * (100 + c.match_tolerance)) and (b.size is null or a.size is null or a.size * 100 >= b.size * 85) end FROM listings a JOIN listings b ON b.id = listing_matches.match_id JOIN cities c ON c.id = a.city_id WHERE a.id = listing_matches.listing_id), 0);
--> statement-breakpoint
CREATE TRIGGER `listing_matches_live_listing` AFTER UPDATE OF status, city_id, sale_or_rent, post_type, property_type, budget, size ON `listings` BEGIN
  UPDATE `listing_matches` SET live = coalesce((SELECT a.status = 'ACTIVE' and b.status = 'ACTIVE' and a.city_id = b.city_id and a.sale_or_rent = b.sale_or_rent and a.post_type <> b.post_type and a.property_key = b.property_key and case when a.post_type = 'REQ' then (a.budget is null or b.budget is null or b.budget * 100 <= a.budget * (100 + c.match_tolerance)) and (a.size is null or b.size is null or b.size * 100 >= a.size * 85) else (b.budget is null or a.budget is null or a.budget * 100 <= b.budget * (100 + c.match_tolerance)) and (b.size is null or a.size is null or a.size * 100 >= b.size * 85) end FROM listings a JOIN listings b ON b.id = listing_matches.match_id JOIN cities c ON c.id = a.city_id WHERE a.id = listing_matches.listing_id), 0)
  WHERE (listing_id = new.id OR match_id = new.id) AND live IS NOT coalesce((SELECT a.status = 'ACTIVE' and b.status = 'ACTIVE' and a.city_id = b.city_id and a.sale_or_rent = b.sale_or_rent and a.post_type <> b.post_type and a.property_key = b.property_key and case when a.post_type = 'REQ' then (a.budget is null or b.budget is null or b.budget * 100 <= a.budget * (100 + c.match_tolerance)) and (a.size is null or b.size is null or b.size * 100 >= a.size * 85) else (b.budget is null or a.budget is null or a.budget * 100 <= b.budget * (100 + c.match_tolerance)) and (b.size is null or a.size is null or a.size * 100 >= b.size * 85) end FROM listings a JOIN listings b ON b.id = listing_matches.match_id JOIN cities c ON c.id = a.city_id WHERE a.id = listing_matches.listing_id), 0);
END;
--> statement-breakpoint
CREATE TRIGGER `listing_matches_live_city` AFTER UPDATE OF match_tolerance ON `cities` BEGIN
  UPDATE `listing_matches` SET live = coalesce((SELECT a.status = 'ACTIVE' and b.status = 'ACTIVE' and a.city_id = b.city_id and a.sale_or_rent = b.sale_or_rent and a.post_type <> b.post_type and a.property_key = b.property_key and case when a.post_type = 'REQ' then (a.budget is null or b.budget is null or b.budget * 100 <= a.budget * (100 + c.match_tolerance)) and (a.size is null or b.size is null or b.size * 100 >= a.size * 85) else (b.budget is null or a.budget is null or a.budget * 100 <= b.budget * (100 + c.match_tolerance)) and (b.size is null or a.size is null or a.size * 100 >= b.size * 85) end FROM listings a JOIN listings b ON b.id = listing_matches.match_id JOIN cities c ON c.id = a.city_id WHERE a.id = listing_matches.listing_id), 0)
  WHERE listing_id IN (SELECT id FROM `listings` WHERE city_id = new.id) AND live IS NOT coalesce((SELECT a.status = 'ACTIVE' and b.status = 'ACTIVE' and a.city_id = b.city_id and a.sale_or_rent = b.sale_or_rent and a.post_type <> b.post_type and a.property_key = b.property_key and case when a.post_type = 'REQ' then (a.budget is null or b.budget is null or b.budget * 100 <= a.budget * (100 + c.match_tolerance)) and (a.size is null or b.size is null or b.size * 100 >= a.size * 85) else (b.budget is null or a.budget is null or a.budget * 100 <= b.budget * (100 + c.match_tolerance)) and (b.size is null or a.size is null or a.size * 100 >= b.size * 85) end FROM listings a JOIN listings b ON b.id = listing_matches.match_id JOIN cities c ON c.id = a.city_id WHERE a.id = listing_matches.listing_id), 0);
END;
--> statement-breakpoint
DROP TRIGGER `change_feed_match_update`;
--> statement-breakpoint
CREATE TRIGGER `change_feed_match_update` AFTER UPDATE OF seen_at, dismissed_at, live ON `listing_matches` BEGIN
  INSERT INTO `change_feed` (topic, before, after) VALUES ('match',
    json_object('id', old.id, 'user_id', old.user_id, 'seen', old.seen_at IS NOT NULL, 'dismissed', old.dismissed_at IS NOT NULL, 'live', old.live),
    json_object('id', new.id, 'user_id', new.user_id, 'listing_id', new.listing_id, 'match_id', new.match_id,
      'seen', new.seen_at IS NOT NULL, 'dismissed', new.dismissed_at IS NOT NULL, 'live', new.live));
END;
