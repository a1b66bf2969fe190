CREATE TABLE `listing_matches` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`listing_id` integer NOT NULL,
	`match_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`score` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`seen_at` integer,
	`dismissed_at` integer,
	FOREIGN KEY (`listing_id`) REFERENCES `listings`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`match_id`) REFERENCES `listings`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `listing_matches_pair_unique` ON `listing_matches` (`listing_id`,`match_id`);--> statement-breakpoint
CREATE INDEX `listing_matches_match_idx` ON `listing_matches` (`match_id`);--> statement-breakpoint
CREATE INDEX `listing_matches_inbox_idx` ON `listing_matches` (`user_id`,`id`);--> statement-breakpoint
CREATE INDEX `listing_matches_unseen_idx` ON `listing_matches` (`user_id`,`seen_at`,`dismissed_at`);--> statement-breakpoint
ALTER TABLE `cities` ADD `match_tolerance` integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE `listings` ADD `property_key` text GENERATED ALWAYS AS (replace(replace(replace(replace(replace(replace(lower(replace(replace(replace(replace(replace(replace(property_type, ' ', ''), '-', ''), '.', ''), '/', ''), '_', ''), ',', '')), 'bhkapartment', 'bhk'), 'bhkflat', 'bhk'), 'rkapartment', 'rk'), 'rkflat', 'rk'), 'officespace', 'office'), 'retailshop', 'shop')) VIRTUAL;--> statement-breakpoint
CREATE INDEX `listings_match_idx` ON `listings` (`city_id`,`sale_or_rent`,`post_type`,`property_key`,`status`,`budget`,`size`,`location`);--> statement-breakpoint
-- New and changed inbox entries reach every process (the per-user event streams, the unseen badge): issue 15.
CREATE TRIGGER `change_feed_match_insert` AFTER INSERT ON `listing_matches` BEGIN
  INSERT INTO `change_feed` (topic, after) VALUES ('match', json_object('id', new.id, 'user_id', new.user_id, 'listing_id', new.listing_id,
    'match_id', new.match_id, 'seen', new.seen_at IS NOT NULL, 'dismissed', new.dismissed_at IS NOT NULL));
END;
--> statement-breakpoint
CREATE TRIGGER `change_feed_match_update` AFTER UPDATE OF seen_at, dismissed_at ON `listing_matches` BEGIN
  INSERT INTO `change_feed` (topic, before, after) VALUES ('match',
    json_object('id', old.id, 'user_id', old.user_id, 'seen', old.seen_at IS NOT NULL, 'dismissed', old.dismissed_at IS NOT NULL),
    json_object('id', new.id, 'user_id', new.user_id, 'listing_id', new.listing_id, 'match_id', new.match_id,
      'seen', new.seen_at IS NOT NULL, 'dismissed', new.dismissed_at IS NOT NULL));
END;
