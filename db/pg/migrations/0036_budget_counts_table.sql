CREATE TABLE "listing_budget_counts" (
	"location" text NOT NULL,
	"status" text NOT NULL,
	"bucket" integer NOT NULL,
	"shard" smallint DEFAULT 0 NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "listing_budget_counts_pk" PRIMARY KEY("location","status","bucket","shard")
);
--> statement-breakpoint
CREATE INDEX "listing_budget_counts_sum_idx" ON "listing_budget_counts" USING btree ("location","status","bucket","shard","n");