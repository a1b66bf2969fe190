ALTER TABLE "listings" ADD COLUMN "suspended_by" bigint;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "suspension_reason" text;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "suspended_at" bigint;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "review_requested_at" bigint;--> statement-breakpoint
ALTER TABLE "listings" ADD COLUMN "review_note" text;--> statement-breakpoint
CREATE INDEX "listings_review_idx" ON "listings" USING btree ("id","status","owner_user_id","city_id") WHERE "listings"."review_requested_at" is not null;--> statement-breakpoint
CREATE INDEX "listings_review_city_idx" ON "listings" USING btree ("city_id","id","status","owner_user_id") WHERE "listings"."review_requested_at" is not null;