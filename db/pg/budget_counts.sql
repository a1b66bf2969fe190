-- PostgreSQL only (issue 36): listings by zone ('' for none), status and budget bucket, for a zone's total within a
-- budget range (src/modules/listings/store/read.ts, `bucketedZoneBudget`). The (zone, status, budget) index counted
-- such a total entry by entry: 100,000 entries for a wide range of a zone, about 100 ms of the server's CPU on every
-- first touch (PostgreSQL reads an index-only entry at about a microsecond). The range's whole buckets are summed
-- here and only its two edge buckets counted in the index. Every listing with a budget has one row's worth: no city
-- (the totals read here are the network's), the rows split in 16 shards by listing id as the network's kept counts
-- are (db/pg/derived.sql), one sorted upsert per change at COMMIT (a deferred constraint trigger). SQLite counts
-- its index (1.4 ms for a broker's total) and has no such table. Applied by the migration of the same name, word for
-- word.
--
-- A bucket is width_bucket's: how many of the thresholds are at or below the budget (0 below 1,000; bucket b holds
-- [threshold b, threshold b + 1)). The thresholds are 1,000 × 10^(k/20) rounded, k = 0 to 180: 20 a decade up to a
-- million million, whole numbers, so the app (BUDGET_THRESHOLDS in read.ts) compares budgets with them exactly as
-- this function does.
create or replace function brokernet_budget_bucket(budget double precision) returns integer language sql immutable parallel safe as $$
  select width_bucket(budget, '{1000,1122,1259,1413,1585,1778,1995,2239,2512,2818,3162,3548,3981,4467,5012,5623,6310,7079,7943,8913,10000,11220,12589,14125,15849,17783,19953,22387,25119,28184,31623,35481,39811,44668,50119,56234,63096,70795,79433,89125,100000,112202,125893,141254,158489,177828,199526,223872,251189,281838,316228,354813,398107,446684,501187,562341,630957,707946,794328,891251,1000000,1122018,1258925,1412538,1584893,1778279,1995262,2238721,2511886,2818383,3162278,3548134,3981072,4466836,5011872,5623413,6309573,7079458,7943282,8912509,10000000,11220185,12589254,14125375,15848932,17782794,19952623,22387211,25118864,28183829,31622777,35481339,39810717,44668359,50118723,56234133,63095734,70794578,79432823,89125094,100000000,112201845,125892541,141253754,158489319,177827941,199526231,223872114,251188643,281838293,316227766,354813389,398107171,446683592,501187234,562341325,630957344,707945784,794328235,891250938,1000000000,1122018454,1258925412,1412537545,1584893192,1778279410,1995262315,2238721139,2511886432,2818382931,3162277660,3548133892,3981071706,4466835922,5011872336,5623413252,6309573445,7079457844,7943282347,8912509381,10000000000,11220184543,12589254118,14125375446,15848931925,17782794100,19952623150,22387211386,25118864315,28183829313,31622776602,35481338923,39810717055,44668359215,50118723363,56234132519,63095734448,70794578438,79432823472,89125093813,100000000000,112201845430,125892541179,141253754462,158489319246,177827941004,199526231497,223872113857,251188643151,281838293126,316227766017,354813389234,398107170553,446683592151,501187233627,562341325190,630957344480,707945784384,794328234724,891250938134,1000000000000}'::double precision[])
$$;
--> statement-breakpoint
create or replace function listing_budget_counts_keep() returns trigger language plpgsql as $$
begin
  insert into listing_budget_counts as t (location, status, bucket, shard, n)
  select location, status, bucket, shard, sum(n)
  from (values
    (coalesce(old.location, ''), old.status, brokernet_budget_bucket(old.budget), old.id % 16, -1),
    (coalesce(new.location, ''), new.status, brokernet_budget_bucket(new.budget), new.id % 16, 1)
  ) as change (location, status, bucket, shard, n)
  where status is not null and bucket is not null
  group by location, status, bucket, shard
  having sum(n) <> 0
  order by location, status, bucket, shard
  on conflict on constraint listing_budget_counts_pk do update set n = t.n + excluded.n;
  return null;
end
$$;
--> statement-breakpoint
drop trigger if exists listing_budget_counts_keep on listings;
--> statement-breakpoint
create constraint trigger listing_budget_counts_keep after insert or delete or update of location, status, budget
  on listings deferrable initially deferred for each row execute function listing_budget_counts_keep();
--> statement-breakpoint
-- The backfill: what the trigger would have kept for the rows already there (emptied first: the file may be applied
-- again).
delete from listing_budget_counts;
--> statement-breakpoint
insert into listing_budget_counts (location, status, bucket, shard, n)
select coalesce(location, ''), status, brokernet_budget_bucket(budget), id % 16, count(*) from listings where budget is not null group by 1, 2, 3, 4;
--> statement-breakpoint
analyze listing_budget_counts;
