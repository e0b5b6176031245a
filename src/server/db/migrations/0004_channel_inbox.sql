CREATE TABLE "channel_inbox" (
	"id" varchar(28) PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"body" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "channel_inbox_pending_idx" ON "channel_inbox" USING btree ("received_at") WHERE "channel_inbox"."processed_at" is null;