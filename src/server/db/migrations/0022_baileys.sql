CREATE TABLE "baileys_auth" (
	"chip_id" varchar(28) PRIMARY KEY NOT NULL,
	"creds" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "baileys_keys" (
	"chip_id" varchar(28) NOT NULL,
	"type" text NOT NULL,
	"key_id" text NOT NULL,
	"value" text NOT NULL,
	CONSTRAINT "baileys_keys_chip_id_type_key_id_pk" PRIMARY KEY("chip_id","type","key_id")
);
--> statement-breakpoint
CREATE TABLE "baileys_leases" (
	"chip_id" varchar(28) PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chips" ADD COLUMN "status_reason" text;--> statement-breakpoint
ALTER TABLE "baileys_auth" ADD CONSTRAINT "baileys_auth_chip_id_chips_id_fk" FOREIGN KEY ("chip_id") REFERENCES "public"."chips"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "baileys_keys" ADD CONSTRAINT "baileys_keys_chip_id_chips_id_fk" FOREIGN KEY ("chip_id") REFERENCES "public"."chips"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "baileys_leases" ADD CONSTRAINT "baileys_leases_chip_id_chips_id_fk" FOREIGN KEY ("chip_id") REFERENCES "public"."chips"("id") ON DELETE no action ON UPDATE no action;