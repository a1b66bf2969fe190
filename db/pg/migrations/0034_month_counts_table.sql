CREATE TABLE "listing_month_counts" (
	"city_id" bigint NOT NULL,
	"month" text NOT NULL,
	"post_type" text NOT NULL,
	"sale_or_rent" text NOT NULL,
	"status" text NOT NULL,
	"location" text NOT NULL,
	"shard" smallint DEFAULT 0 NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "listing_month_counts_pk" PRIMARY KEY("city_id","month","post_type","sale_or_rent","status","location","shard")
);
--> statement-breakpoint
CREATE INDEX "listing_month_counts_sum_idx" ON "listing_month_counts" USING btree ("city_id","month","post_type","sale_or_rent","status","location","shard","n");