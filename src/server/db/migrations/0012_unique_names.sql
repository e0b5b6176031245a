-- Names already repeated (any case) get ' (2)', ' (3)'… so the unique index can be made.
UPDATE "departments" SET "name" = d."name" || ' (' || d.n || ')' FROM (
  SELECT "id", "name", row_number() OVER (PARTITION BY "account_id", lower("name") ORDER BY "created_at", "id") AS n
  FROM "departments" WHERE "filed" = false
) d WHERE "departments"."id" = d."id" AND d.n > 1;--> statement-breakpoint
-- Names already repeated (any case) get ' (2)', ' (3)'… so the unique index can be made.
UPDATE "tags" SET "name" = d."name" || ' (' || d.n || ')' FROM (
  SELECT "id", "name", row_number() OVER (PARTITION BY "account_id", lower("name") ORDER BY "created_at", "id") AS n
  FROM "tags" WHERE "filed" = false
) d WHERE "tags"."id" = d."id" AND d.n > 1;--> statement-breakpoint
CREATE UNIQUE INDEX "departments_account_name_unique" ON "departments" USING btree ("account_id",lower("name")) WHERE "departments"."filed" = false;--> statement-breakpoint
CREATE UNIQUE INDEX "tags_account_name_unique" ON "tags" USING btree ("account_id",lower("name")) WHERE "tags"."filed" = false;