CREATE INDEX `listings_on_market_idx` ON `listings` (coalesce("first_posted_at", "created_at"),`status`,`owner_user_id`);
