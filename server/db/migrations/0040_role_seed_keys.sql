ALTER TABLE "roles" ADD COLUMN "seed_key" text;--> statement-breakpoint
-- The seeded platform roles of an installation made before the keys get theirs (SEEDED_ROLES, domain/roles.ts), found
-- this once by the names they were seeded with (the first of a name, should there be two). From now on the seed, the
-- migrations and the tests find a seeded role by its key, never by its French name.
UPDATE "roles" SET "seed_key" = "seeded"."key"
  FROM (VALUES
    ('superAdmin', 'Super administrateur'),
    ('organisationAdmin', 'Administrateur d''organisation'),
    ('audioprothesiste', 'Audioprothésiste'),
    ('assistant', 'Assistant(e)'),
    ('readOnly', 'Lecture seule')
  ) AS "seeded" ("key", "name")
  WHERE "roles"."id" = (SELECT min("r"."id") FROM "roles" AS "r" WHERE "r"."holding_id" IS NULL AND "r"."name" = "seeded"."name");--> statement-breakpoint
-- The organisation administrator's name with the typographic apostrophe, as a new installation seeds it (a name an
-- administrator gave it since is kept).
UPDATE "roles" SET "name" = 'Administrateur d’organisation', "updated_at" = now()
  WHERE "seed_key" = 'organisationAdmin' AND "name" = 'Administrateur d''organisation';--> statement-breakpoint
CREATE UNIQUE INDEX "roles_seed_key_idx" ON "roles" USING btree ("seed_key");
