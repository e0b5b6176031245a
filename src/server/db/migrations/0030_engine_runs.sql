CREATE TABLE "chatbot_runs" (
	"conversation_id" varchar(28) PRIMARY KEY NOT NULL,
	"account_id" varchar(28) NOT NULL,
	"position" jsonb,
	"lease_until" timestamp with time zone,
	"wake_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "flow_runs" (
	"conversation_id" varchar(28) PRIMARY KEY NOT NULL,
	"account_id" varchar(28) NOT NULL,
	"position" jsonb,
	"lease_until" timestamp with time zone,
	"wake_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "follow_up_runs" (
	"conversation_id" varchar(28) PRIMARY KEY NOT NULL,
	"account_id" varchar(28) NOT NULL,
	"position" jsonb,
	"lease_until" timestamp with time zone,
	"wake_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "conversations_follow_up_idx";--> statement-breakpoint
ALTER TABLE "chatbot_runs" ADD CONSTRAINT "chatbot_runs_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chatbot_runs" ADD CONSTRAINT "chatbot_runs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_runs" ADD CONSTRAINT "flow_runs_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flow_runs" ADD CONSTRAINT "flow_runs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follow_up_runs" ADD CONSTRAINT "follow_up_runs_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follow_up_runs" ADD CONSTRAINT "follow_up_runs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chatbot_runs_wake_idx" ON "chatbot_runs" USING btree ("wake_at");--> statement-breakpoint
CREATE INDEX "flow_runs_wake_idx" ON "flow_runs" USING btree ("wake_at");--> statement-breakpoint
CREATE INDEX "follow_up_runs_wake_idx" ON "follow_up_runs" USING btree ("wake_at");--> statement-breakpoint
CREATE INDEX "conversations_follow_up_idx" ON "conversations" USING btree ("follow_up_anchor") WHERE "conversations"."follow_up_anchor" is not null and "conversations"."finished_at" is null;--> statement-breakpoint
-- Live positions carried over (issue 36 item 4): a conversation in the middle of a flow, a chatbot's answer or
-- a follow-up's count continues after the upgrade from where it stood, with its claim and its due time.
INSERT INTO "flow_runs" ("conversation_id", "account_id", "position", "lease_until", "wake_at")
  SELECT "id", "account_id", "last_flow_context", "flow_lease_until",
    CASE WHEN "last_flow_context"->>'ended' IS NULL THEN ("last_flow_context"->>'until')::timestamptz END
  FROM "conversations" WHERE "last_flow_context" IS NOT NULL OR "flow_lease_until" IS NOT NULL;--> statement-breakpoint
INSERT INTO "chatbot_runs" ("conversation_id", "account_id", "position", "lease_until", "wake_at")
  SELECT "id", "account_id", "chatbot_context", "chatbot_lease_until", ("chatbot_context"->>'retry_at')::timestamptz
  FROM "conversations" WHERE "chatbot_context" IS NOT NULL OR "chatbot_lease_until" IS NOT NULL;--> statement-breakpoint
INSERT INTO "follow_up_runs" ("conversation_id", "account_id", "position", "lease_until", "wake_at")
  SELECT "id", "account_id",
    jsonb_build_object(
      'anchor', to_char("follow_up_anchor" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'step', "follow_up_step",
      'last_at', to_char("follow_up_last_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')),
    "follow_up_lease_until", "follow_up_due_at"
  FROM "conversations" WHERE "follow_up_anchor" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" DROP COLUMN "last_flow_context";--> statement-breakpoint
ALTER TABLE "conversations" DROP COLUMN "flow_lease_until";--> statement-breakpoint
ALTER TABLE "conversations" DROP COLUMN "chatbot_context";--> statement-breakpoint
ALTER TABLE "conversations" DROP COLUMN "chatbot_lease_until";--> statement-breakpoint
ALTER TABLE "conversations" DROP COLUMN "follow_up_step";--> statement-breakpoint
ALTER TABLE "conversations" DROP COLUMN "follow_up_last_at";--> statement-breakpoint
ALTER TABLE "conversations" DROP COLUMN "follow_up_due_at";--> statement-breakpoint
ALTER TABLE "conversations" DROP COLUMN "follow_up_lease_until";