DROP INDEX "listings_match_idx";--> statement-breakpoint
DROP INDEX "listings_city_id_idx";--> statement-breakpoint
DROP INDEX "listings_city_type_deal_idx";--> statement-breakpoint
DROP INDEX "listings_type_deal_idx";--> statement-breakpoint
DROP INDEX "listings_location_budget_idx";--> statement-breakpoint
DROP INDEX "listings_location_id_idx";--> statement-breakpoint
DROP INDEX "listings_date_idx";--> statement-breakpoint
DROP INDEX "listings_city_date_idx";--> statement-breakpoint
CREATE INDEX "listing_counts_sum_idx" ON "listing_counts" USING btree ("city_id","post_type","sale_or_rent","status","location","property_type","shard","n");--> statement-breakpoint
CREATE INDEX "listing_day_counts_sum_idx" ON "listing_day_counts" USING btree ("city_id","date","post_type","sale_or_rent","status","location","shard","n");--> statement-breakpoint
CREATE INDEX "listing_id_blocks_sum_idx" ON "listing_id_blocks" USING btree ("city_id","block","suspended","shard","n");--> statement-breakpoint
CREATE INDEX "listings_visibility_idx" ON "listings" USING btree ("id","status","owner_user_id");--> statement-breakpoint
CREATE INDEX "listings_match_idx" ON "listings" USING btree ("city_id","sale_or_rent","post_type","property_key","status","budget","size","location","locality","created_at","owner_user_id");--> statement-breakpoint
CREATE INDEX "listings_city_id_idx" ON "listings" USING btree ("city_id","id","status","owner_user_id");--> statement-breakpoint
CREATE INDEX "listings_city_type_deal_idx" ON "listings" USING btree ("city_id","post_type","sale_or_rent","id","status","owner_user_id");--> statement-breakpoint
CREATE INDEX "listings_type_deal_idx" ON "listings" USING btree ("post_type","sale_or_rent","id","status","owner_user_id");--> statement-breakpoint
CREATE INDEX "listings_location_budget_idx" ON "listings" USING btree ("location","budget","status","owner_user_id");--> statement-breakpoint
CREATE INDEX "listings_location_id_idx" ON "listings" USING btree ("location","id","budget","status","owner_user_id");--> statement-breakpoint
CREATE INDEX "listings_date_idx" ON "listings" USING btree ("date","id","status","owner_user_id","post_type");--> statement-breakpoint
CREATE INDEX "listings_city_date_idx" ON "listings" USING btree ("city_id","date","id","status","owner_user_id","post_type");