CREATE TABLE "billing_days" (
	"day" text PRIMARY KEY NOT NULL,
	"new_count" integer DEFAULT 0 NOT NULL,
	"new_cents" bigint DEFAULT 0 NOT NULL,
	"old_count" integer DEFAULT 0 NOT NULL,
	"old_cents" bigint DEFAULT 0 NOT NULL,
	"refund_count" integer DEFAULT 0 NOT NULL,
	"refund_cents" bigint DEFAULT 0 NOT NULL,
	"cancel_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_events" (
	"id" varchar(28) PRIMARY KEY NOT NULL,
	"event_key" text NOT NULL,
	"webhook_type" text NOT NULL,
	"status" text NOT NULL,
	"kind" text NOT NULL,
	"sale_type" text,
	"cycle" integer,
	"amount_cents" integer DEFAULT 0 NOT NULL,
	"guru_subscription_id" text,
	"guru_offer_id" text,
	"email" text,
	"account_id" varchar(28),
	"error" text,
	"payload" jsonb NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_subscriptions" (
	"guru_subscription_id" text PRIMARY KEY NOT NULL,
	"account_id" varchar(28) NOT NULL,
	"offer_id" varchar(28),
	"status" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"canceled_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "guru_offers" (
	"id" varchar(28) PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"offer_id" text DEFAULT '' NOT NULL,
	"max_channels" integer NOT NULL,
	"max_official_channels" integer NOT NULL,
	"max_users" integer NOT NULL,
	"max_flows" integer NOT NULL,
	"max_summaries" integer NOT NULL,
	"max_follow_ups" integer NOT NULL,
	"campaigns_enabled" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billing_events" ADD CONSTRAINT "billing_events_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_subscriptions" ADD CONSTRAINT "billing_subscriptions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_subscriptions" ADD CONSTRAINT "billing_subscriptions_offer_id_guru_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."guru_offers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_events_key_unique" ON "billing_events" USING btree ("event_key");--> statement-breakpoint
CREATE INDEX "billing_events_kind_occurred_idx" ON "billing_events" USING btree ("kind","occurred_at");--> statement-breakpoint
CREATE INDEX "billing_subscriptions_account_idx" ON "billing_subscriptions" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "guru_offers_offer_id_unique" ON "guru_offers" USING btree ("offer_id") WHERE "guru_offers"."offer_id" <> '';