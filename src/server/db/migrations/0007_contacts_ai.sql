CREATE TABLE "ai_runs" (
	"conversation_id" varchar(28) NOT NULL,
	"kind" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ai_runs_conversation_id_kind_pk" PRIMARY KEY("conversation_id","kind")
);
--> statement-breakpoint
CREATE TABLE "ai_usage" (
	"account_id" varchar(28) NOT NULL,
	"month" text NOT NULL,
	"summaries" integer DEFAULT 0 NOT NULL,
	"follow_ups" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "ai_usage_account_id_month_pk" PRIMARY KEY("account_id","month")
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "max_summaries" integer DEFAULT 100 NOT NULL;--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "max_follow_ups" integer DEFAULT 100 NOT NULL;--> statement-breakpoint
ALTER TABLE "ai_runs" ADD CONSTRAINT "ai_runs_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_usage" ADD CONSTRAINT "ai_usage_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contacts_account_created_idx" ON "contacts" USING btree ("account_id","created_at");