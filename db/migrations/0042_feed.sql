-- The change feed (docs/decisions/005-change-feed.md): each write to what cached answers are computed from appends a
-- row to change_feed in the writer's own transaction, and every process reads the rows after the last it saw before a
-- cached read, so each cache drops (or adjusts) only what a change alters. Migrations 0011, 0017, 0018 and 0021 built
-- these; this is their current definition, once. The newest migration named feed (0025_feed at first; 0026_feed adds
-- ended sessions and phone numbers; 0031_feed expiry reminders; 0037_feed visibility and circles; 0039_feed co-broking) is this file word for word: a change here is a new
-- one, filled with this file (docs/decisions/014-derived-data-files.md).
-- PostgreSQL sends the same changes as notifications: db/pg/feed.sql.

-- A listing: its place (city, and the city's state and country), the filter fields and its searchable text (entry ID,
-- owner's name, locality, property type, details) in one string, before and after.
DROP TRIGGER IF EXISTS `change_feed_listing_insert`;
--> statement-breakpoint
CREATE TRIGGER `change_feed_listing_insert` AFTER INSERT ON `listings` BEGIN
  INSERT INTO `change_feed` (topic, after) VALUES ('listing', json_object(
    'id', new.id, 'owner_user_id', new.owner_user_id, 'city_id', new.city_id,
    'state_id', (SELECT state_id FROM `cities` WHERE id = new.city_id),
    'country_id', (SELECT s.country_id FROM `cities` c JOIN `states` s ON s.id = c.state_id WHERE c.id = new.city_id),
    'post_type', new.post_type, 'sale_or_rent', new.sale_or_rent, 'status', new.status, 'location', new.location,
    'property_type', new.property_type, 'budget', new.budget, 'date', new.date,
    'visibility', new.visibility, 'circle_id', new.circle_id,
    'text', concat_ws(' ', new.entry_id, (SELECT full_name FROM `users` WHERE id = new.owner_user_id), new.locality, new.property_type, new.details)));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `change_feed_listing_update`;
--> statement-breakpoint
CREATE TRIGGER `change_feed_listing_update` AFTER UPDATE ON `listings` BEGIN
  INSERT INTO `change_feed` (topic, before, after) VALUES ('listing', json_object(
    'id', old.id, 'owner_user_id', old.owner_user_id, 'city_id', old.city_id,
    'state_id', (SELECT state_id FROM `cities` WHERE id = old.city_id),
    'country_id', (SELECT s.country_id FROM `cities` c JOIN `states` s ON s.id = c.state_id WHERE c.id = old.city_id),
    'post_type', old.post_type, 'sale_or_rent', old.sale_or_rent, 'status', old.status, 'location', old.location,
    'property_type', old.property_type, 'budget', old.budget, 'date', old.date,
    'visibility', old.visibility, 'circle_id', old.circle_id,
    'text', concat_ws(' ', old.entry_id, (SELECT full_name FROM `users` WHERE id = old.owner_user_id), old.locality, old.property_type, old.details)
  ), json_object(
    'id', new.id, 'owner_user_id', new.owner_user_id, 'city_id', new.city_id,
    'state_id', (SELECT state_id FROM `cities` WHERE id = new.city_id),
    'country_id', (SELECT s.country_id FROM `cities` c JOIN `states` s ON s.id = c.state_id WHERE c.id = new.city_id),
    'post_type', new.post_type, 'sale_or_rent', new.sale_or_rent, 'status', new.status, 'location', new.location,
    'property_type', new.property_type, 'budget', new.budget, 'date', new.date,
    'visibility', new.visibility, 'circle_id', new.circle_id,
    'text', concat_ws(' ', new.entry_id, (SELECT full_name FROM `users` WHERE id = new.owner_user_id), new.locality, new.property_type, new.details)));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `change_feed_listing_delete`;
--> statement-breakpoint
CREATE TRIGGER `change_feed_listing_delete` AFTER DELETE ON `listings` BEGIN
  INSERT INTO `change_feed` (topic, before) VALUES ('listing', json_object(
    'id', old.id, 'owner_user_id', old.owner_user_id, 'city_id', old.city_id,
    'state_id', (SELECT state_id FROM `cities` WHERE id = old.city_id),
    'country_id', (SELECT s.country_id FROM `cities` c JOIN `states` s ON s.id = c.state_id WHERE c.id = old.city_id),
    'post_type', old.post_type, 'sale_or_rent', old.sale_or_rent, 'status', old.status, 'location', old.location,
    'property_type', old.property_type, 'budget', old.budget, 'date', old.date,
    'visibility', old.visibility, 'circle_id', old.circle_id,
    'text', concat_ws(' ', old.entry_id, (SELECT full_name FROM `users` WHERE id = old.owner_user_id), old.locality, old.property_type, old.details)));
END;
--> statement-breakpoint
-- A broker added to or taken out of a circle (issue 35): the CIRCLE listings they see change. Rare, and treated as
-- touching every broker's answers (src/modules/listings/affects.ts).
DROP TRIGGER IF EXISTS `change_feed_circle_insert`;
--> statement-breakpoint
CREATE TRIGGER `change_feed_circle_insert` AFTER INSERT ON `circle_members` BEGIN
  INSERT INTO `change_feed` (topic, after) VALUES ('circle', json_object('circle_id', new.circle_id, 'member_user_id', new.member_user_id));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `change_feed_circle_delete`;
--> statement-breakpoint
CREATE TRIGGER `change_feed_circle_delete` AFTER DELETE ON `circle_members` BEGIN
  INSERT INTO `change_feed` (topic, before) VALUES ('circle', json_object('circle_id', old.circle_id, 'member_user_id', old.member_user_id));
END;
--> statement-breakpoint
-- Co-broking (issue 35, src/modules/deals/): a request sent or answered, a deal's step, a message in its thread. Each
-- names the two brokers, whose event streams tell them (the `deal` event).
DROP TRIGGER IF EXISTS `change_feed_cobroke_request`;
--> statement-breakpoint
CREATE TRIGGER `change_feed_cobroke_request` AFTER INSERT ON `cobroke_requests` BEGIN
  INSERT INTO `change_feed` (topic, after) VALUES ('deal', json_object('kind', 'request', 'id', new.id, 'owner_id', new.owner_id, 'requester_id', new.requester_id, 'status', new.status));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `change_feed_cobroke_request_update`;
--> statement-breakpoint
CREATE TRIGGER `change_feed_cobroke_request_update` AFTER UPDATE OF status ON `cobroke_requests` BEGIN
  INSERT INTO `change_feed` (topic, after) VALUES ('deal', json_object('kind', 'request', 'id', new.id, 'owner_id', new.owner_id, 'requester_id', new.requester_id, 'status', new.status));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `change_feed_deal`;
--> statement-breakpoint
CREATE TRIGGER `change_feed_deal` AFTER INSERT ON `deals` BEGIN
  INSERT INTO `change_feed` (topic, after) VALUES ('deal', json_object('kind', 'deal', 'id', new.id, 'owner_id', new.owner_id, 'requester_id', new.requester_id, 'stage', new.stage));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `change_feed_deal_update`;
--> statement-breakpoint
CREATE TRIGGER `change_feed_deal_update` AFTER UPDATE ON `deals` BEGIN
  INSERT INTO `change_feed` (topic, after) VALUES ('deal', json_object('kind', 'deal', 'id', new.id, 'owner_id', new.owner_id, 'requester_id', new.requester_id, 'stage', new.stage));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `change_feed_deal_message`;
--> statement-breakpoint
CREATE TRIGGER `change_feed_deal_message` AFTER INSERT ON `deal_messages` BEGIN
  INSERT INTO `change_feed` (topic, after) SELECT 'deal', json_object('kind', 'message', 'id', d.id, 'owner_id', d.owner_id, 'requester_id', d.requester_id, 'stage', d.stage)
    FROM `deals` d WHERE d.id = new.deal_id;
END;
--> statement-breakpoint
-- A user: what scopes, counts and listing rows (the owner's name) read. An email change is recorded too (top brokers
-- show it), though the row does not carry the email. Sign-ins and password changes are not changes here.
DROP TRIGGER IF EXISTS `change_feed_user_insert`;
--> statement-breakpoint
CREATE TRIGGER `change_feed_user_insert` AFTER INSERT ON `users` BEGIN
  INSERT INTO `change_feed` (topic, after) VALUES ('user', json_object('id', new.id, 'role', new.role, 'is_active', new.is_active,
    'registration_status', new.registration_status, 'city_id', new.city_id, 'full_name', new.full_name));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `change_feed_user_update`;
--> statement-breakpoint
CREATE TRIGGER `change_feed_user_update` AFTER UPDATE OF role, is_active, registration_status, city_id, full_name, email, phone ON `users` BEGIN
  INSERT INTO `change_feed` (topic, before, after) VALUES ('user',
    json_object('id', old.id, 'role', old.role, 'is_active', old.is_active, 'registration_status', old.registration_status, 'city_id', old.city_id, 'full_name', old.full_name),
    json_object('id', new.id, 'role', new.role, 'is_active', new.is_active, 'registration_status', new.registration_status, 'city_id', new.city_id, 'full_name', new.full_name));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `change_feed_user_delete`;
--> statement-breakpoint
CREATE TRIGGER `change_feed_user_delete` AFTER DELETE ON `users` BEGIN
  INSERT INTO `change_feed` (topic, before) VALUES ('user', json_object('id', old.id, 'role', old.role, 'is_active', old.is_active,
    'registration_status', old.registration_status, 'city_id', old.city_id, 'full_name', old.full_name));
END;
--> statement-breakpoint
-- Places: names appear in listing rows and counts; any change is rare and treated as touching everything.
DROP TRIGGER IF EXISTS `change_feed_country_insert`;
--> statement-breakpoint
CREATE TRIGGER `change_feed_country_insert` AFTER INSERT ON `countries` BEGIN INSERT INTO `change_feed` (topic) VALUES ('geography'); END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `change_feed_country_update`;
--> statement-breakpoint
CREATE TRIGGER `change_feed_country_update` AFTER UPDATE ON `countries` BEGIN INSERT INTO `change_feed` (topic) VALUES ('geography'); END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `change_feed_country_delete`;
--> statement-breakpoint
CREATE TRIGGER `change_feed_country_delete` AFTER DELETE ON `countries` BEGIN INSERT INTO `change_feed` (topic) VALUES ('geography'); END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `change_feed_state_insert`;
--> statement-breakpoint
CREATE TRIGGER `change_feed_state_insert` AFTER INSERT ON `states` BEGIN INSERT INTO `change_feed` (topic) VALUES ('geography'); END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `change_feed_state_update`;
--> statement-breakpoint
CREATE TRIGGER `change_feed_state_update` AFTER UPDATE ON `states` BEGIN INSERT INTO `change_feed` (topic) VALUES ('geography'); END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `change_feed_state_delete`;
--> statement-breakpoint
CREATE TRIGGER `change_feed_state_delete` AFTER DELETE ON `states` BEGIN INSERT INTO `change_feed` (topic) VALUES ('geography'); END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `change_feed_city_insert`;
--> statement-breakpoint
CREATE TRIGGER `change_feed_city_insert` AFTER INSERT ON `cities` BEGIN INSERT INTO `change_feed` (topic) VALUES ('geography'); END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `change_feed_city_update`;
--> statement-breakpoint
CREATE TRIGGER `change_feed_city_update` AFTER UPDATE ON `cities` BEGIN INSERT INTO `change_feed` (topic) VALUES ('geography'); END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `change_feed_city_delete`;
--> statement-breakpoint
CREATE TRIGGER `change_feed_city_delete` AFTER DELETE ON `cities` BEGIN INSERT INTO `change_feed` (topic) VALUES ('geography'); END;
--> statement-breakpoint
-- Inbox entries, for the event streams of their owners (src/modules/matches/events.ts): an announcement (an entry
-- created unseen), seen, dismissed, or its pair ceasing or starting to hold (live).
DROP TRIGGER IF EXISTS `change_feed_match_insert`;
--> statement-breakpoint
CREATE TRIGGER `change_feed_match_insert` AFTER INSERT ON `listing_matches` WHEN new.seen_at IS NULL BEGIN
  INSERT INTO `change_feed` (topic, after) VALUES ('match', json_object('id', new.id, 'user_id', new.user_id, 'listing_id', new.listing_id,
    'match_id', new.match_id, 'seen', new.seen_at IS NOT NULL, 'dismissed', new.dismissed_at IS NOT NULL));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `change_feed_match_update`;
--> statement-breakpoint
CREATE TRIGGER `change_feed_match_update` AFTER UPDATE OF seen_at, dismissed_at, live ON `listing_matches` BEGIN
  INSERT INTO `change_feed` (topic, before, after) VALUES ('match',
    json_object('id', old.id, 'user_id', old.user_id, 'seen', old.seen_at IS NOT NULL, 'dismissed', old.dismissed_at IS NOT NULL, 'live', old.live),
    json_object('id', new.id, 'user_id', new.user_id, 'listing_id', new.listing_id, 'match_id', new.match_id,
      'seen', new.seen_at IS NOT NULL, 'dismissed', new.dismissed_at IS NOT NULL, 'live', new.live));
END;
--> statement-breakpoint
-- The newest 10,000 changes are kept: a process further behind than that forgets all it has cached.
-- An ended session (sign-out, a password changed, an account deactivated, an expired one removed): every process
-- forgets it at once (src/platform/session-cache.ts). Its id is the token's SHA-256, as stored; never the token.
DROP TRIGGER IF EXISTS `change_feed_session_delete`;
--> statement-breakpoint
CREATE TRIGGER `change_feed_session_delete` AFTER DELETE ON `sessions` BEGIN
  INSERT INTO `change_feed` (topic, before) VALUES ('session', json_object('id', old.id, 'user_id', old.user_id));
END;
--> statement-breakpoint
-- An expiry reminder recorded (a listing's end claimed for its mail, src/modules/listings/reminders.ts): the owner's
-- event streams, in every process, send `expiring` (src/modules/listings/expiring-events.ts).
DROP TRIGGER IF EXISTS `change_feed_reminder_insert`;
--> statement-breakpoint
CREATE TRIGGER `change_feed_reminder_insert` AFTER INSERT ON `listing_reminders` BEGIN
  INSERT INTO `change_feed` (topic, after) VALUES ('reminder', json_object('listing_id', new.listing_id,
    'user_id', (SELECT owner_user_id FROM `listings` WHERE id = new.listing_id)));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `change_feed_reminder_update`;
--> statement-breakpoint
CREATE TRIGGER `change_feed_reminder_update` AFTER UPDATE ON `listing_reminders` BEGIN
  INSERT INTO `change_feed` (topic, after) VALUES ('reminder', json_object('listing_id', new.listing_id,
    'user_id', (SELECT owner_user_id FROM `listings` WHERE id = new.listing_id)));
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `change_feed_keep_recent`;
--> statement-breakpoint
CREATE TRIGGER `change_feed_keep_recent` AFTER INSERT ON `change_feed` BEGIN
  DELETE FROM `change_feed` WHERE seq <= new.seq - 10000;
END;
