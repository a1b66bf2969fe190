-- Issue 29: the inbox's live flag is judged before the kept counts. PostgreSQL fires a row's AFTER triggers in the
-- order of their names, and deleting a listing removes its inbox entries first (the foreign keys' cascade, whose
-- triggers' names come first): an edit or expiry of the other listing of such an entry locked count rows and then the
-- entry, the delete the entry and then the same count rows, and each waited for the other (a deadlock: 57 of 300 such
-- pairs of writes made at once). Under a name that sorts before listing_counts_keep, every write takes the entry rows
-- first. A database made since db/pg/derived.sql names it so already has it (nothing to drop, the same trigger again).
drop trigger if exists listing_matches_live_listing on listings;
--> statement-breakpoint
create or replace trigger listing_0_matches_live after update of status, city_id, sale_or_rent, post_type, property_type, budget, size
  on listings for each row execute function listing_matches_live_listing();
