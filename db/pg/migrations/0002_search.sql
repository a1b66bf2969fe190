-- Listing search on PostgreSQL (issue 16; docs/decisions/013-postgres.md): what SQLite's FTS5 tables do
-- (docs/decisions/008-search-tags.md), as a tsvector column kept by triggers, with a GIN index. The same text is
-- searchable: entry ID, owner's name, locality, property type, details. Punctuation becomes a space first, so an entry
-- ID is three words ("REQ-MUM-000123": req, mum, 000123) as in SQLite's tokenizer, not a hyphenated word and a signed
-- number: the store's query ("MUM-0001" → mum <-> 0001:*) then finds it by its parts in sequence, the last a prefix.

ALTER TABLE listings ADD COLUMN search tsvector;
--> statement-breakpoint
CREATE FUNCTION brokernet_search_text(entry_id text, owner_name text, locality text, property_type text, details text) RETURNS tsvector
  LANGUAGE sql IMMUTABLE AS $$
  SELECT to_tsvector('simple', regexp_replace(concat_ws(' ', entry_id, owner_name, locality, property_type, details), '[[:punct:]]+', ' ', 'g'))
$$;
--> statement-breakpoint
CREATE FUNCTION brokernet_listing_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search := brokernet_search_text(NEW.entry_id, (SELECT full_name FROM users WHERE id = NEW.owner_user_id), NEW.locality, NEW.property_type, NEW.details);
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER brokernet_listing_search BEFORE INSERT OR UPDATE OF entry_id, owner_user_id, locality, property_type, details ON listings
  FOR EACH ROW EXECUTE FUNCTION brokernet_listing_search();
--> statement-breakpoint
-- An owner's new name is searchable in their listings at once (a broker has a few hundred at most).
CREATE FUNCTION brokernet_owner_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE listings SET search = brokernet_search_text(entry_id, NEW.full_name, locality, property_type, details) WHERE owner_user_id = NEW.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER brokernet_owner_search AFTER UPDATE OF full_name ON users FOR EACH ROW
  WHEN (OLD.full_name IS DISTINCT FROM NEW.full_name) EXECUTE FUNCTION brokernet_owner_search();
--> statement-breakpoint
UPDATE listings l SET search = brokernet_search_text(l.entry_id, u.full_name, l.locality, l.property_type, l.details) FROM users u WHERE u.id = l.owner_user_id;
--> statement-breakpoint
CREATE INDEX listings_search_idx ON listings USING gin (search);
