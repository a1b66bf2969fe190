-- Expired listings (issue 17) get a class of their own in the id blocks, as db/pg/derived.sql now defines it: a deep
-- page of the network skips them. No listing is EXPIRED yet when this runs, so the kept rows stay true.
create or replace function listing_id_blocks_keep() returns trigger language plpgsql as $$
begin
  insert into listing_id_blocks as t (city_id, block, suspended, shard, n)
  select city_id, block, suspended, shard, sum(n)
  from (values
    (old.city_id, old.id >> 10, (case old.status when 'SUSPENDED' then 1 when 'EXPIRED' then 2 else 0 end), 0, -1),
    (0, old.id >> 10, (case old.status when 'SUSPENDED' then 1 when 'EXPIRED' then 2 else 0 end), old.id % 16, -1),
    (new.city_id, new.id >> 10, (case new.status when 'SUSPENDED' then 1 when 'EXPIRED' then 2 else 0 end), 0, 1),
    (0, new.id >> 10, (case new.status when 'SUSPENDED' then 1 when 'EXPIRED' then 2 else 0 end), new.id % 16, 1)
  ) as change (city_id, block, suspended, shard, n)
  where block is not null
  group by city_id, block, suspended, shard
  having sum(n) <> 0
  order by city_id, block, suspended, shard
  on conflict on constraint listing_id_blocks_pk do update set n = t.n + excluded.n;
  return null;
end
$$;
