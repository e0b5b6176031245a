CREATE TABLE "chatbots" (
	"id" varchar(28) PRIMARY KEY NOT NULL,
	"account_id" varchar(28) NOT NULL,
	"name" text NOT NULL,
	"temperature" real DEFAULT 0.3 NOT NULL,
	"response_delay" integer DEFAULT 2 NOT NULL,
	"redirect" text DEFAULT 'human' NOT NULL,
	"flow_id" varchar(28),
	"auto_transfer" boolean DEFAULT true NOT NULL,
	"auto_transfer_if_media" boolean DEFAULT false NOT NULL,
	"auto_transfer_message" text DEFAULT '' NOT NULL,
	"finish_message" text DEFAULT '' NOT NULL,
	"instructions" jsonb NOT NULL,
	"model" text,
	"filed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "chatbot_context" jsonb;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "chatbot_lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chatbots" ADD CONSTRAINT "chatbots_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chatbots_account_idx" ON "chatbots" USING btree ("account_id");