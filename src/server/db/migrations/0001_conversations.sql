CREATE TABLE "conversations" (
	"id" varchar(28) PRIMARY KEY NOT NULL,
	"account_id" varchar(28) NOT NULL,
	"chip_id" varchar(28) NOT NULL,
	"contact_id" varchar(28) NOT NULL,
	"department_id" varchar(28),
	"is_manual" boolean DEFAULT false NOT NULL,
	"chatbot_type" text,
	"is_new" boolean DEFAULT true NOT NULL,
	"waiting_response" boolean DEFAULT false NOT NULL,
	"context_window" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_chip_id_chips_id_fk" FOREIGN KEY ("chip_id") REFERENCES "public"."chips"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conversations_open_idx" ON "conversations" USING btree ("account_id","is_manual","department_id") WHERE "conversations"."finished_at" is null;--> statement-breakpoint
CREATE INDEX "conversations_contact_idx" ON "conversations" USING btree ("account_id","contact_id");