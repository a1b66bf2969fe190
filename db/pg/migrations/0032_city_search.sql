-- A search within one city (issue 36; docs/decisions/060-pg-cold-reads.md): the words of the search vector each
-- prefixed by the listing's city ("c7_riverside"), in an index of their own. The search index holds a word's matches in
-- the whole network, which a city's search intersects with every listing of the city (88,000 and 20,000 entries for
-- 2,500 matches); here the city's matches of a word are one entry's postings. The query side prefixes to_tsquery's
-- lexemes the same way (brokernet_city_query), so words are split and folded by the same parser as the vector. These
-- words have no positions: a phrase (an entry ID's parts) is narrowed by them and checked on the row (the store).
CREATE FUNCTION brokernet_city_words(city_id bigint, search tsvector) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT array_to_tsvector(array(SELECT 'c' || city_id || '_' || lexeme FROM unnest(search)))
$$;
--> statement-breakpoint
-- A lexeme of the query is quoted in its text form ('riverside':*); a searched word has letters and digits only, so
-- it holds no quote of its own.
CREATE FUNCTION brokernet_city_query(city_id bigint, query tsquery) RETURNS tsquery
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT regexp_replace(query::text, '''([^'']*)''', '''c' || city_id || '_\1''', 'g')::tsquery
$$;
--> statement-breakpoint
CREATE INDEX listings_city_search_idx ON listings USING gin (brokernet_city_words(city_id, search));
