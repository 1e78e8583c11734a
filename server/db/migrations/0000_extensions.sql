-- Trigram indexes for case- and accent-insensitive search; unaccent to normalise search text in SQL.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE EXTENSION IF NOT EXISTS unaccent;
