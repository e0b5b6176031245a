ALTER TABLE "messages" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "conversations_changes_idx" ON "conversations" USING btree ("account_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "messages_changes_idx" ON "messages" USING btree ("account_id","updated_at","id");