CREATE TABLE `push_held` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`kind` text NOT NULL,
	`subject` text,
	`release_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `push_held_release_idx` ON `push_held` (`release_at`);--> statement-breakpoint
CREATE INDEX `push_held_user_idx` ON `push_held` (`user_id`);--> statement-breakpoint
CREATE TABLE `push_settings` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`kinds_off` text DEFAULT '' NOT NULL,
	`quiet_from` integer,
	`quiet_to` integer,
	`time_zone` text,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `push_outbox` ADD `subject` text;