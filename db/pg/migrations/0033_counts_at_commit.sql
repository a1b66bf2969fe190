-- Issue 36: the kept counts are written at COMMIT, not by the statement that changes a listing. Their rows of a city
-- (and an owner's) are hot: every write of the city's listings adds to the same few, so a writer holds them from its
-- statement to its commit and every other writer of that city waits. Under load that was seconds (bench:http
-- --postgres --instances 2: inserts queued behind each other's count rows). Deferred to the commit, a row is held
-- only while the transaction commits. The same functions, the same rows: only the moment changes (a transaction that
-- reads counts after its own write, before committing, no longer sees it; none does). db/pg/derived.sql says so too.
drop trigger if exists listing_counts_keep on listings;
--> statement-breakpoint
create constraint trigger listing_counts_keep after insert or delete or update of city_id, post_type, sale_or_rent, status, location, property_type
  on listings deferrable initially deferred for each row execute function listing_counts_keep();
--> statement-breakpoint
drop trigger if exists listing_daily_counts_keep on listings;
--> statement-breakpoint
create constraint trigger listing_daily_counts_keep after insert or delete or update of date, city_id, post_type
  on listings deferrable initially deferred for each row execute function listing_daily_counts_keep();
--> statement-breakpoint
drop trigger if exists owner_listing_counts_keep on listings;
--> statement-breakpoint
create constraint trigger owner_listing_counts_keep after insert or delete or update of owner_user_id, city_id
  on listings deferrable initially deferred for each row execute function owner_listing_counts_keep();
--> statement-breakpoint
drop trigger if exists listing_day_counts_keep on listings;
--> statement-breakpoint
create constraint trigger listing_day_counts_keep after insert or delete or update of city_id, date, post_type, sale_or_rent, status, location
  on listings deferrable initially deferred for each row execute function listing_day_counts_keep();
--> statement-breakpoint
drop trigger if exists listing_id_blocks_keep on listings;
--> statement-breakpoint
create constraint trigger listing_id_blocks_keep after insert or delete or update of city_id, status
  on listings deferrable initially deferred for each row execute function listing_id_blocks_keep();
