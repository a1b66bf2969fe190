CREATE TABLE `match_queue` (
	`listing_id` integer PRIMARY KEY NOT NULL,
	`queued_at` integer NOT NULL
);
