CREATE TABLE `circle_members` (
	`circle_id` integer NOT NULL,
	`member_user_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`circle_id`, `member_user_id`),
	FOREIGN KEY (`circle_id`) REFERENCES `circles`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`member_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `circle_members_member_idx` ON `circle_members` (`member_user_id`,`circle_id`);--> statement-breakpoint
CREATE TABLE `circles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`owner_user_id` integer NOT NULL,
	`name` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`owner_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `circles_owner_name_unique` ON `circles` (`owner_user_id`,`name`);--> statement-breakpoint
CREATE TABLE `listing_private` (
	`listing_id` integer PRIMARY KEY NOT NULL,
	`owner_name` text,
	`owner_phone` text,
	`owner_phone_key` text,
	`address` text,
	`bottom_price` real,
	`note` text,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`listing_id`) REFERENCES `listings`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `listings` ADD `visibility` text DEFAULT 'NETWORK' NOT NULL;--> statement-breakpoint
ALTER TABLE `listings` ADD `circle_id` integer REFERENCES circles(id) ON DELETE set null;--> statement-breakpoint
CREATE INDEX `listings_not_network_idx` ON `listings` (`visibility`,`id`,`owner_user_id`,`circle_id`) WHERE "listings"."visibility" <> 'NETWORK';