CREATE TABLE "contacts" (
	"id" varchar(28) PRIMARY KEY NOT NULL,
	"account_id" varchar(28) NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"override_name" text,
	"phone" text NOT NULL,
	"tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"ignore" boolean DEFAULT false NOT NULL,
	"profile_picture" text,
	"channel_contact_id" text,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"annotations" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"filed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" varchar(28) PRIMARY KEY NOT NULL,
	"account_id" varchar(28) NOT NULL,
	"conversation_id" varchar(28) NOT NULL,
	"chip_id" varchar(28) NOT NULL,
	"origin" text NOT NULL,
	"type" text NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"media_url" text,
	"file_name" text,
	"canonical_url" text,
	"deleted" boolean DEFAULT false NOT NULL,
	"status" integer DEFAULT 0 NOT NULL,
	"failure" text,
	"user_id" varchar(28),
	"message_id" text,
	"platform_message_id" text,
	"event" text,
	"reply_message" jsonb,
	"location" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chips" ADD COLUMN "provider" text DEFAULT 'simulator' NOT NULL;--> statement-breakpoint
ALTER TABLE "chips" ADD COLUMN "redirect" text DEFAULT 'ai_chatbot' NOT NULL;--> statement-breakpoint
ALTER TABLE "chips" ADD COLUMN "chatbot_id" varchar(28);--> statement-breakpoint
ALTER TABLE "chips" ADD COLUMN "flow_id" varchar(28);--> statement-breakpoint
ALTER TABLE "chips" ADD COLUMN "display_phone_number" text;--> statement-breakpoint
ALTER TABLE "chips" ADD COLUMN "phone_number_quality" text;--> statement-breakpoint
ALTER TABLE "chips" ADD COLUMN "phone_number_id" text;--> statement-breakpoint
ALTER TABLE "chips" ADD COLUMN "registered" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "chips" ADD COLUMN "qrcode" text;--> statement-breakpoint
ALTER TABLE "chips" ADD COLUMN "active" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "chips" ADD COLUMN "reset" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "chips" ADD COLUMN "changed" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "chips" ADD COLUMN "daily_limit" integer;--> statement-breakpoint
ALTER TABLE "chips" ADD COLUMN "credentials" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "chatbot_id" varchar(28);--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "flow_id" varchar(28);--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "auto_follow_up" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "channel_type" text;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "start_flow" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "last_flow_context" jsonb;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "last_message_id" varchar(28);--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "last_message_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_chip_id_chips_id_fk" FOREIGN KEY ("chip_id") REFERENCES "public"."chips"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contacts_account_phone_unique" ON "contacts" USING btree ("account_id","phone") WHERE "contacts"."filed" = false;--> statement-breakpoint
CREATE INDEX "messages_conversation_idx" ON "messages" USING btree ("conversation_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_local_id_unique" ON "messages" USING btree ("account_id","message_id") WHERE "messages"."message_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "messages_platform_id_unique" ON "messages" USING btree ("chip_id","platform_message_id") WHERE "messages"."platform_message_id" is not null;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "chips_phone_number_id_unique" ON "chips" USING btree ("phone_number_id") WHERE "chips"."phone_number_id" is not null and "chips"."filed" = false;--> statement-breakpoint
CREATE UNIQUE INDEX "conversations_open_unique" ON "conversations" USING btree ("chip_id","contact_id") WHERE "conversations"."finished_at" is null;