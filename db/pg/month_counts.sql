-- PostgreSQL only (issue 36): listing_day_counts by calendar month, for date ranges. A range's total sums its whole
-- months here and its edge days in listing_day_counts (src/modules/listings/store/read.ts, `datedSum`): the network's
-- rows are split in 16 shards (db/pg/derived.sql), so a year of the network was 274,000 day rows to add up on every
-- first touch of a year-long range (about 60 ms of the server's CPU); it is now about 23,000 month rows and a few
-- thousand edge days. `month` is the date's first 7 characters (YYYY-MM). Kept as derived.sql keeps the day counts:
-- the same key and shards, one sorted upsert per change, at COMMIT (a deferred constraint trigger, after the others
-- by name, so every writer still locks count rows in the same order). SQLite adds up its 40,000 day rows of a year
-- in 2.5 ms and has no such table. Applied by the migration of the same name (word for word, as search.sql and feed.sql).
create or replace function listing_month_counts_keep() returns trigger language plpgsql as $$
begin
  insert into listing_month_counts as t (city_id, month, post_type, sale_or_rent, status, location, shard, n)
  select city_id, month, post_type, sale_or_rent, status, location, shard, sum(n)
  from (values
    (old.city_id, left(old.date, 7), old.post_type, old.sale_or_rent, old.status, coalesce(old.location, ''), 0, -1),
    (0, left(old.date, 7), old.post_type, old.sale_or_rent, old.status, coalesce(old.location, ''), old.id % 16, -1),
    (new.city_id, left(new.date, 7), new.post_type, new.sale_or_rent, new.status, coalesce(new.location, ''), 0, 1),
    (0, left(new.date, 7), new.post_type, new.sale_or_rent, new.status, coalesce(new.location, ''), new.id % 16, 1)
  ) as change (city_id, month, post_type, sale_or_rent, status, location, shard, n)
  where post_type is not null
  group by city_id, month, post_type, sale_or_rent, status, location, shard
  having sum(n) <> 0
  order by city_id, month, post_type, sale_or_rent, status, location, shard
  on conflict on constraint listing_month_counts_pk do update set n = t.n + excluded.n;
  return null;
end
$$;
--> statement-breakpoint
drop trigger if exists listing_month_counts_keep on listings;
--> statement-breakpoint
create constraint trigger listing_month_counts_keep after insert or delete or update of city_id, date, post_type, sale_or_rent, status, location
  on listings deferrable initially deferred for each row execute function listing_month_counts_keep();
--> statement-breakpoint
-- The backfill: what the trigger would have kept for the rows already there (a database migrated to 0035, and
-- scripts/bench-pg.ts's bulk load through db/pg/backfill.ts). Emptied first, so the file may be applied again.
delete from listing_month_counts;
--> statement-breakpoint
insert into listing_month_counts (city_id, month, post_type, sale_or_rent, status, location, shard, n)
select city_id, left(date, 7), post_type, sale_or_rent, status, coalesce(location, ''), 0, count(*) from listings group by 1, 2, 3, 4, 5, 6
union all
select 0, left(date, 7), post_type, sale_or_rent, status, coalesce(location, ''), id % 16, count(*) from listings group by 2, 3, 4, 5, 6, 7;
--> statement-breakpoint
-- The planner's statistics of the new table now, not at autovacuum's next turn: its first readers read it by ranges.
analyze listing_month_counts;
