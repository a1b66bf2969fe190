-- The change feed on PostgreSQL (issue 16; docs/decisions/013-postgres.md). On SQLite, triggers append each change to
-- the `change_feed` table and every process reads new rows before a cached read (docs/decisions/005-change-feed.md).
-- Here the same change, with the same fields, is a notification on the channel `brokernet_changes`: PostgreSQL
-- delivers it to every listening instance when (and only if) the transaction commits, in commit order (db/pg-feed.ts).
-- Flags are sent as 0/1, as SQLite's JSON has them, so every process judges a change the same way. Each notification
-- carries its transaction's id (`xid`): a cached count computed in a snapshot is then adjusted by exactly the changes
-- that snapshot did not see (db/pg-feed.ts). Every definition replaces the one before it: a change here is a new
-- migration that is this file again (0003_feed was the first, without `xid`; then 0006_feed_xid; 0007_feed adds ended
-- sessions and phone numbers; 0012_feed expiry reminders; 0019_feed visibility and circles; 0021_feed co-broking).

CREATE OR REPLACE FUNCTION brokernet_listing_json(l listings) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', l.id, 'owner_user_id', l.owner_user_id, 'city_id', l.city_id,
    'state_id', (SELECT state_id FROM cities WHERE id = l.city_id),
    'country_id', (SELECT s.country_id FROM cities c JOIN states s ON s.id = c.state_id WHERE c.id = l.city_id),
    'post_type', l.post_type, 'sale_or_rent', l.sale_or_rent, 'status', l.status, 'location', l.location,
    'property_type', l.property_type, 'budget', l.budget, 'date', l.date,
    'visibility', l.visibility, 'circle_id', l.circle_id,
    'text', concat_ws(' ', l.entry_id, (SELECT full_name FROM users WHERE id = l.owner_user_id), l.locality, l.property_type, l.details))
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION brokernet_notify(topic text, before jsonb, after jsonb) RETURNS void LANGUAGE sql AS $$
  SELECT pg_notify('brokernet_changes', jsonb_build_object('topic', topic, 'before', before, 'after', after, 'xid', pg_current_xact_id()::text)::text)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION brokernet_feed_listing() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM brokernet_notify('listing',
    CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE brokernet_listing_json(OLD) END,
    CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE brokernet_listing_json(NEW) END);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER brokernet_feed_listing AFTER INSERT OR UPDATE OR DELETE ON listings FOR EACH ROW EXECUTE FUNCTION brokernet_feed_listing();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION brokernet_user_json(u users) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_build_object('id', u.id, 'role', u.role, 'is_active', u.is_active::int, 'registration_status', u.registration_status,
    'city_id', u.city_id, 'full_name', u.full_name)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION brokernet_feed_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM brokernet_notify('user',
    CASE WHEN TG_OP = 'INSERT' THEN NULL ELSE brokernet_user_json(OLD) END,
    CASE WHEN TG_OP = 'DELETE' THEN NULL ELSE brokernet_user_json(NEW) END);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Sign-ins and password changes are not changes here (the same columns as SQLite's trigger).
CREATE OR REPLACE TRIGGER brokernet_feed_user_update AFTER UPDATE OF role, is_active, registration_status, city_id, full_name, email, phone ON users
  FOR EACH ROW EXECUTE FUNCTION brokernet_feed_user();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER brokernet_feed_user_insert_delete AFTER INSERT OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION brokernet_feed_user();
--> statement-breakpoint
-- Places: rare, and treated as touching everything. One notification per statement.
CREATE OR REPLACE FUNCTION brokernet_feed_geography() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM brokernet_notify('geography', NULL, NULL);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER brokernet_feed_countries AFTER INSERT OR UPDATE OR DELETE ON countries FOR EACH STATEMENT EXECUTE FUNCTION brokernet_feed_geography();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER brokernet_feed_states AFTER INSERT OR UPDATE OR DELETE ON states FOR EACH STATEMENT EXECUTE FUNCTION brokernet_feed_geography();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER brokernet_feed_cities AFTER INSERT OR UPDATE OR DELETE ON cities FOR EACH STATEMENT EXECUTE FUNCTION brokernet_feed_geography();
--> statement-breakpoint
-- Inbox entries: announcements (inserted unseen) and changes of seen, dismissed and live.
CREATE OR REPLACE FUNCTION brokernet_feed_match() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.seen_at IS NULL THEN
      PERFORM brokernet_notify('match', NULL, jsonb_build_object('id', NEW.id, 'user_id', NEW.user_id, 'listing_id', NEW.listing_id,
        'match_id', NEW.match_id, 'seen', (NEW.seen_at IS NOT NULL)::int, 'dismissed', (NEW.dismissed_at IS NOT NULL)::int));
    END IF;
  ELSE
    PERFORM brokernet_notify('match',
      jsonb_build_object('id', OLD.id, 'user_id', OLD.user_id, 'seen', (OLD.seen_at IS NOT NULL)::int, 'dismissed', (OLD.dismissed_at IS NOT NULL)::int, 'live', OLD.live::int),
      jsonb_build_object('id', NEW.id, 'user_id', NEW.user_id, 'listing_id', NEW.listing_id, 'match_id', NEW.match_id,
        'seen', (NEW.seen_at IS NOT NULL)::int, 'dismissed', (NEW.dismissed_at IS NOT NULL)::int, 'live', NEW.live::int));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER brokernet_feed_match_insert AFTER INSERT ON listing_matches FOR EACH ROW EXECUTE FUNCTION brokernet_feed_match();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER brokernet_feed_match_update AFTER UPDATE OF seen_at, dismissed_at, live ON listing_matches FOR EACH ROW EXECUTE FUNCTION brokernet_feed_match();
--> statement-breakpoint
-- An ended session (sign-out, a password changed, an account deactivated, an expired one removed): every instance
-- forgets it at once (src/platform/session-cache.ts). Its id is the token's SHA-256, as stored; never the token.
CREATE OR REPLACE FUNCTION brokernet_feed_session() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM brokernet_notify('session', jsonb_build_object('id', OLD.id, 'user_id', OLD.user_id), NULL);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER brokernet_feed_session AFTER DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION brokernet_feed_session();
--> statement-breakpoint
-- An expiry reminder recorded (a listing's end claimed for its mail, src/modules/listings/reminders.ts): the owner's
-- event streams, on every instance, send `expiring` (src/modules/listings/expiring-events.ts).
CREATE OR REPLACE FUNCTION brokernet_feed_reminder() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM brokernet_notify('reminder', NULL, jsonb_build_object('listing_id', NEW.listing_id,
    'user_id', (SELECT owner_user_id FROM listings WHERE id = NEW.listing_id)));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER brokernet_feed_reminder AFTER INSERT OR UPDATE ON listing_reminders FOR EACH ROW EXECUTE FUNCTION brokernet_feed_reminder();
--> statement-breakpoint
-- A broker added to or taken out of a circle (issue 35): rare, and treated as touching every broker's answers.
CREATE OR REPLACE FUNCTION brokernet_feed_circle() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM brokernet_notify('circle', NULL, NULL);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER brokernet_feed_circle AFTER INSERT OR DELETE ON circle_members FOR EACH STATEMENT EXECUTE FUNCTION brokernet_feed_circle();
--> statement-breakpoint
-- Co-broking (issue 35): a request sent or answered, a deal's step, a message in its thread, naming the two brokers.
CREATE OR REPLACE FUNCTION brokernet_feed_deal() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'cobroke_requests' THEN
    PERFORM brokernet_notify('deal', NULL, jsonb_build_object('kind', 'request', 'id', NEW.id, 'owner_id', NEW.owner_id, 'requester_id', NEW.requester_id, 'status', NEW.status));
  ELSIF TG_TABLE_NAME = 'deals' THEN
    PERFORM brokernet_notify('deal', NULL, jsonb_build_object('kind', 'deal', 'id', NEW.id, 'owner_id', NEW.owner_id, 'requester_id', NEW.requester_id, 'stage', NEW.stage));
  ELSE
    PERFORM brokernet_notify('deal', NULL, (SELECT jsonb_build_object('kind', 'message', 'id', d.id, 'owner_id', d.owner_id, 'requester_id', d.requester_id, 'stage', d.stage) FROM deals d WHERE d.id = NEW.deal_id));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER brokernet_feed_cobroke_request AFTER INSERT OR UPDATE OF status ON cobroke_requests FOR EACH ROW EXECUTE FUNCTION brokernet_feed_deal();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER brokernet_feed_deal AFTER INSERT OR UPDATE ON deals FOR EACH ROW EXECUTE FUNCTION brokernet_feed_deal();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER brokernet_feed_deal_message AFTER INSERT ON deal_messages FOR EACH ROW EXECUTE FUNCTION brokernet_feed_deal();
