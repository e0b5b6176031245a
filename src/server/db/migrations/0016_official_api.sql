ALTER TABLE "campaign_recipients" ADD COLUMN "platform_message_id" text;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "claim_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "delivered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "read_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "replied_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "clicked_button" text;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "failure_code" integer;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "pricing_category" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "template" jsonb;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "template_parameters" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "template_payloads" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "conversation_creation_rule" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "redirect" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "chatbot_id" varchar(28);--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "department_id" varchar(28);--> statement-breakpoint
ALTER TABLE "chips" ADD COLUMN "throughput" integer DEFAULT 80 NOT NULL;--> statement-breakpoint
CREATE INDEX "campaign_recipients_wamid_idx" ON "campaign_recipients" USING btree ("platform_message_id") WHERE "campaign_recipients"."platform_message_id" is not null;