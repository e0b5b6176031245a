ALTER TABLE "audiences" ADD COLUMN "people_from" varchar(28);--> statement-breakpoint
ALTER TABLE "audiences" ADD COLUMN "import_for" varchar(28);--> statement-breakpoint
ALTER TABLE "audiences" ADD CONSTRAINT "audiences_people_from_audiences_id_fk" FOREIGN KEY ("people_from") REFERENCES "public"."audiences"("id") ON DELETE no action ON UPDATE no action;