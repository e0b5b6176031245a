ALTER TABLE "conversations" ADD COLUMN "human_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "conversations_account_created_idx" ON "conversations" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE INDEX "conversations_created_idx" ON "conversations" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "messages_created_idx" ON "messages" USING btree ("created_at","origin");--> statement-breakpoint
-- The dashboards count a conversation as human when it was ever handed to human service (README 'Dashboard
-- numbers'). Many writers set is_manual, so the database keeps human_at in this one place: set once, when
-- is_manual first becomes true (on insert: the conversation's own created_at), and never cleared.
CREATE OR REPLACE FUNCTION conversations_human_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.human_at IS NOT NULL THEN
    NEW.human_at := OLD.human_at;
  ELSIF NEW.is_manual AND NEW.human_at IS NULL THEN
    NEW.human_at := CASE WHEN TG_OP = 'INSERT' THEN coalesce(NEW.created_at, now()) ELSE now() END;
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER conversations_human_at BEFORE INSERT OR UPDATE OF is_manual ON "conversations"
  FOR EACH ROW EXECUTE FUNCTION conversations_human_at();--> statement-breakpoint
-- What is human now was human at least since it was opened (the history before this column is not known).
UPDATE "conversations" SET "human_at" = "created_at" WHERE "is_manual" AND "human_at" IS NULL;
