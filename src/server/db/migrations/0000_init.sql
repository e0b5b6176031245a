CREATE TABLE "accounts" (
	"id" varchar(28) PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"campaigns_enabled" boolean DEFAULT false NOT NULL,
	"max_channels" integer DEFAULT 1 NOT NULL,
	"max_official_channels" integer DEFAULT 0 NOT NULL,
	"max_users" integer DEFAULT 3 NOT NULL,
	"max_flows" integer DEFAULT 1 NOT NULL,
	"api_key" text,
	"plan_id" text,
	"subscription_status" text DEFAULT 'active' NOT NULL,
	"custom_negotiation" boolean DEFAULT false NOT NULL,
	"wabas" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chips" (
	"id" varchar(28) PRIMARY KEY NOT NULL,
	"account_id" varchar(28) NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"official" boolean DEFAULT false NOT NULL,
	"waba" text,
	"department_id" varchar(28),
	"filed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "departments" (
	"id" varchar(28) PRIMARY KEY NOT NULL,
	"account_id" varchar(28) NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"filed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_failures" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"window_start" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "password_resets" (
	"id" varchar(28) PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"user_id" varchar(28) NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" varchar(28) PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"user_id" varchar(28) NOT NULL,
	"acting_admin_id" varchar(28),
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"user_agent" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"account_id" varchar(28) PRIMARY KEY NOT NULL,
	"last_status" text DEFAULT 'none' NOT NULL,
	"invoices" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" varchar(28) PRIMARY KEY NOT NULL,
	"account_id" varchar(28) NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"profile_picture" text,
	"phone" text DEFAULT '' NOT NULL,
	"user_role" text NOT NULL,
	"access_areas" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"system_user_roles" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"admin" boolean DEFAULT false NOT NULL,
	"departments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"disable_notification_sound" boolean DEFAULT false NOT NULL,
	"user_signature" boolean DEFAULT false NOT NULL,
	"filed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chips" ADD CONSTRAINT "chips_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chips" ADD CONSTRAINT "chips_department_id_departments_id_fk" FOREIGN KEY ("department_id") REFERENCES "public"."departments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "departments" ADD CONSTRAINT "departments_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_resets" ADD CONSTRAINT "password_resets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_acting_admin_id_users_id_fk" FOREIGN KEY ("acting_admin_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chips_account_idx" ON "chips" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "departments_account_idx" ON "departments" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "password_resets_token_hash_unique" ON "password_resets" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_token_hash_unique" ON "sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_unique" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_account_idx" ON "users" USING btree ("account_id");