CREATE TABLE "audience_people" (
	"audience_id" varchar(28) NOT NULL,
	"phone" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "audience_people_audience_id_phone_pk" PRIMARY KEY("audience_id","phone")
);
--> statement-breakpoint
CREATE TABLE "audiences" (
	"id" varchar(28) PRIMARY KEY NOT NULL,
	"account_id" varchar(28) NOT NULL,
	"name" text NOT NULL,
	"props" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"create_contacts" boolean DEFAULT true NOT NULL,
	"people_count" integer DEFAULT 0 NOT NULL,
	"filed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign_recipients" (
	"campaign_id" varchar(28) NOT NULL,
	"seq" integer NOT NULL,
	"phone" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"contact_id" varchar(28),
	"conversation_id" varchar(28),
	"message_id" varchar(28),
	"planned_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"failure" text,
	CONSTRAINT "campaign_recipients_campaign_id_phone_pk" PRIMARY KEY("campaign_id","phone")
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" varchar(28) PRIMARY KEY NOT NULL,
	"account_id" varchar(28) NOT NULL,
	"user_id" varchar(28) NOT NULL,
	"name" text NOT NULL,
	"chip_id" varchar(28) NOT NULL,
	"audience_type" text NOT NULL,
	"audience_id" varchar(28),
	"audience_tags" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"audience_tags_skip" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"message_type" text NOT NULL,
	"versions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"flow_id" varchar(28),
	"interval_seconds" integer NOT NULL,
	"scheduled_to" timestamp with time zone,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"sent_messages" integer DEFAULT 0 NOT NULL,
	"failed_messages" integer DEFAULT 0 NOT NULL,
	"people_count" integer DEFAULT 0 NOT NULL,
	"cancel_now" boolean DEFAULT false NOT NULL,
	"paused" boolean DEFAULT false NOT NULL,
	"failure" text,
	"next_send_at" timestamp with time zone,
	"last_sent_at" timestamp with time zone,
	"lease_until" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"official" boolean DEFAULT false NOT NULL,
	"filed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audience_people" ADD CONSTRAINT "audience_people_audience_id_audiences_id_fk" FOREIGN KEY ("audience_id") REFERENCES "public"."audiences"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audiences" ADD CONSTRAINT "audiences_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD CONSTRAINT "campaign_recipients_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_chip_id_chips_id_fk" FOREIGN KEY ("chip_id") REFERENCES "public"."chips"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audiences_account_idx" ON "audiences" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_recipients_seq_unique" ON "campaign_recipients" USING btree ("campaign_id","seq");--> statement-breakpoint
CREATE INDEX "campaign_recipients_status_idx" ON "campaign_recipients" USING btree ("campaign_id","status","seq");--> statement-breakpoint
CREATE INDEX "campaigns_account_idx" ON "campaigns" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "campaigns_chip_idx" ON "campaigns" USING btree ("chip_id","status");