-- Who served a conversation (src/shared/rules/service-kind.ts, README 'Dashboard numbers'): human when a person
-- of the team served it. human_at is set when is_manual first becomes true (on insert: the opening time), as
-- before, and kept; but a conversation opened in human service (the chip's first service, or opened by a
-- send) and handed to a flow or a chatbot before any user sent a message in it (as the public API, webhooks,
-- flow campaigns and scheduled flows do at once) was served by the engine, not a person: its human_at from
-- the opening is cleared.
CREATE OR REPLACE FUNCTION conversations_human_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.is_manual AND NEW.human_at IS NULL THEN
      NEW.human_at := coalesce(NEW.created_at, now());
    END IF;
  ELSIF NEW.is_manual AND NOT OLD.is_manual THEN
    NEW.human_at := coalesce(OLD.human_at, now());
  ELSIF OLD.is_manual AND NOT NEW.is_manual AND OLD.human_at = OLD.created_at AND NOT EXISTS (
    SELECT 1 FROM messages m WHERE m.conversation_id = NEW.id AND m.origin = 'user'
  ) THEN
    NEW.human_at := NULL;
  ELSE
    NEW.human_at := OLD.human_at;
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
-- The conversations the old rule marked so: opened in human service, out of it now, and no user wrote in them.
UPDATE "conversations" c SET "human_at" = NULL
WHERE c."human_at" = c."created_at" AND NOT c."is_manual"
  AND NOT EXISTS (SELECT 1 FROM "messages" m WHERE m."conversation_id" = c."id" AND m."origin" = 'user');
