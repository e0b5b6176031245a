ALTER TABLE "messages" ADD COLUMN "outbound" jsonb;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "send_attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "send_lease_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "messages_pending_send_idx" ON "messages" USING btree ("created_at") WHERE "messages"."status" = 0;