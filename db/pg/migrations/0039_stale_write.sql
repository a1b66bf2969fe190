-- Issue 36: a write conditioned on a row as it was read ("update … where id = ? and status = ?") refuses itself, in the
-- database, when no row matched: `where brokernet_expect_rows((select count(*) from changed), '<message>') > 0` on the
-- statement's result. The statements sent behind it in the same round trip (the audit row, the match queue, COMMIT)
-- then fail with the transaction, instead of the application having to wait for the statement's answer before sending
-- them. SQLSTATE ZS409 (an implementation-defined class) is db/faults.ts' StaleWrite, answered 409 with the message.
-- STABLE, not VOLATILE: PostgreSQL evaluates a stable call that reads no column of the row once, as the query's
-- one-time filter, even when the statement matched nothing (a volatile one would be called per row: never, then).
create or replace function brokernet_expect_rows(n bigint, message text) returns bigint language plpgsql stable as $$
begin
  if n = 0 then
    raise exception using errcode = 'ZS409', message = message;
  end if;
  return n;
end
$$;
