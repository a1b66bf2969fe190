CREATE TABLE `cobroke_requests` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`listing_id` integer NOT NULL,
	`requester_listing_id` integer,
	`owner_id` integer NOT NULL,
	`requester_id` integer NOT NULL,
	`city_id` integer NOT NULL,
	`message` text,
	`split_kind` text NOT NULL,
	`requester_percent` integer,
	`flat_fee` real,
	`status` text NOT NULL,
	`decline_reason` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`answered_at` integer,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`listing_id`) REFERENCES `listings`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`requester_listing_id`) REFERENCES `listings`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`requester_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `cobroke_requests_owner_idx` ON `cobroke_requests` (`owner_id`,`id`);--> statement-breakpoint
CREATE INDEX `cobroke_requests_requester_idx` ON `cobroke_requests` (`requester_id`,`id`);--> statement-breakpoint
CREATE INDEX `cobroke_requests_listing_idx` ON `cobroke_requests` (`listing_id`,`requester_id`);--> statement-breakpoint
CREATE TABLE `deal_messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`deal_id` integer NOT NULL,
	`author_id` integer,
	`kind` text NOT NULL,
	`body` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`deal_id`) REFERENCES `deals`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `deal_messages_deal_idx` ON `deal_messages` (`deal_id`,`id`);--> statement-breakpoint
CREATE TABLE `deals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`request_id` integer NOT NULL,
	`listing_id` integer,
	`requester_listing_id` integer,
	`owner_id` integer NOT NULL,
	`requester_id` integer NOT NULL,
	`city_id` integer NOT NULL,
	`split_kind` text NOT NULL,
	`requester_percent` integer,
	`flat_fee` real,
	`stage` text NOT NULL,
	`visit_at` integer,
	`owner_outcome` text,
	`requester_outcome` text,
	`lost_reason` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`closed_at` integer,
	FOREIGN KEY (`request_id`) REFERENCES `cobroke_requests`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`listing_id`) REFERENCES `listings`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`requester_listing_id`) REFERENCES `listings`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`requester_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `deals_request_unique` ON `deals` (`request_id`);--> statement-breakpoint
CREATE INDEX `deals_owner_idx` ON `deals` (`owner_id`,`id`);--> statement-breakpoint
CREATE INDEX `deals_requester_idx` ON `deals` (`requester_id`,`id`);--> statement-breakpoint
CREATE INDEX `deals_city_idx` ON `deals` (`city_id`,`id`);