CREATE TABLE "follow_up_settings" (
	"id" varchar(28) PRIMARY KEY NOT NULL,
	"account_id" varchar(28) NOT NULL,
	"chip_id" varchar(28) NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"types" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"start_time" integer DEFAULT 8 NOT NULL,
	"end_time" integer DEFAULT 18 NOT NULL,
	"messages" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "follow_up_anchor" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "follow_up_step" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "follow_up_last_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "follow_up_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "follow_up_lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "follow_up_settings" ADD CONSTRAINT "follow_up_settings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follow_up_settings" ADD CONSTRAINT "follow_up_settings_chip_id_chips_id_fk" FOREIGN KEY ("chip_id") REFERENCES "public"."chips"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "follow_up_settings_chip_unique" ON "follow_up_settings" USING btree ("chip_id");--> statement-breakpoint
CREATE INDEX "follow_up_settings_account_idx" ON "follow_up_settings" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "conversations_follow_up_idx" ON "conversations" USING btree ("follow_up_due_at") WHERE "conversations"."follow_up_anchor" is not null and "conversations"."finished_at" is null;