ALTER TABLE "listings" ADD COLUMN "hot_event" text;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "hot_at" bigint;--> statement-breakpoint
CREATE INDEX "listings_hot_idx" ON "listings" USING btree (coalesce("hot_at", "created_at"));