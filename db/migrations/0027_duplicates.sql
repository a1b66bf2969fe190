ALTER TABLE `listings` ADD `contact_key` text GENERATED ALWAYS AS (lower(replace(replace(replace(replace(replace(replace(replace(contact_value, ' ', ''), '-', ''), '.', ''), '(', ''), ')', ''), '+', ''), '/', ''))) VIRTUAL;--> statement-breakpoint
ALTER TABLE `listings` ADD `possible_duplicate_of` integer;--> statement-breakpoint
CREATE INDEX `listings_contact_idx` ON `listings` (`city_id`,`contact_key`,`post_type`,`sale_or_rent`,`status`);--> statement-breakpoint
CREATE INDEX `listings_locality_idx` ON `listings` (`city_id`,lower("locality"),`post_type`,`sale_or_rent`,`status`);--> statement-breakpoint
CREATE INDEX `listings_possible_duplicate_idx` ON `listings` (`id`,`status`,`owner_user_id`) WHERE "listings"."possible_duplicate_of" is not null;