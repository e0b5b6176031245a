CREATE TABLE "quick_messages" (
	"id" varchar(28) PRIMARY KEY NOT NULL,
	"account_id" varchar(28) NOT NULL,
	"shortcut" text NOT NULL,
	"message" text NOT NULL,
	"filed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"id" varchar(28) PRIMARY KEY NOT NULL,
	"account_id" varchar(28) NOT NULL,
	"name" text NOT NULL,
	"color" text NOT NULL,
	"auto_tag" boolean DEFAULT false NOT NULL,
	"keywords" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"filed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "users_email_unique";--> statement-breakpoint
ALTER TABLE "quick_messages" ADD CONSTRAINT "quick_messages_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "quick_messages_account_idx" ON "quick_messages" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "tags_account_idx" ON "tags" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_active_unique" ON "users" USING btree (lower("email")) WHERE "users"."filed" = false;