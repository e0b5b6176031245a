ALTER TABLE "conversations" ADD COLUMN "assigned_user_id" varchar(28);--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "assigned_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "departments" ADD COLUMN "distribute" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_assigned_user_id_users_id_fk" FOREIGN KEY ("assigned_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conversations_assigned_open_idx" ON "conversations" USING btree ("assigned_user_id","assigned_at") WHERE "conversations"."finished_at" is null and "conversations"."assigned_user_id" is not null;--> statement-breakpoint
-- Equal distribution (domains/distribution): a conversation's holder lets go of it when it leaves human
-- service (a transfer to a chatbot or flow) or its department (a transfer elsewhere). Many writers change
-- those columns, so the database does it in this one place.
CREATE OR REPLACE FUNCTION conversations_assignee() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.assigned_user_id IS NOT NULL
     AND (NOT NEW.is_manual OR NEW.department_id IS DISTINCT FROM OLD.department_id) THEN
    NEW.assigned_user_id := NULL;
    NEW.assigned_at := NULL;
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER conversations_assignee BEFORE UPDATE OF is_manual, department_id ON "conversations"
  FOR EACH ROW EXECUTE FUNCTION conversations_assignee();
