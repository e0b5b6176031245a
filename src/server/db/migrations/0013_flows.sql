CREATE TABLE "flows" (
	"id" varchar(28) PRIMARY KEY NOT NULL,
	"account_id" varchar(28) NOT NULL,
	"name" text NOT NULL,
	"nodes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"connections" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"trigger" boolean DEFAULT false NOT NULL,
	"keywords" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"trigger_human" boolean DEFAULT false NOT NULL,
	"disabled_chips" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"filed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "accounts" ADD COLUMN "time_zone" text DEFAULT 'America/Sao_Paulo' NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "flow_lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "interactive" jsonb;--> statement-breakpoint
ALTER TABLE "flows" ADD CONSTRAINT "flows_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "flows_account_idx" ON "flows" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "flows_trigger_idx" ON "flows" USING btree ("account_id") WHERE "flows"."trigger" = true and "flows"."filed" = false;