ALTER TABLE "listing_photos" ADD COLUMN "upload_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "listing_photos_upload_key_unique" ON "listing_photos" USING btree ("listing_id","upload_key");