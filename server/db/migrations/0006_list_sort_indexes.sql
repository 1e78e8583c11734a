DROP INDEX "companies_holding_idx";--> statement-breakpoint
DROP INDEX "shops_holding_idx";--> statement-breakpoint
DROP INDEX "software_holding_idx";--> statement-breakpoint
DROP INDEX "users_holding_idx";--> statement-breakpoint
CREATE INDEX "companies_name_idx" ON "companies" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "companies_holding_name_idx" ON "companies" USING btree ("holding_id","name","id");--> statement-breakpoint
CREATE INDEX "mutuals_name_idx" ON "mutuals" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "shops_name_idx" ON "shops" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "shops_holding_name_idx" ON "shops" USING btree ("holding_id","name","id");--> statement-breakpoint
CREATE INDEX "software_label_idx" ON "software" USING btree ("label","id") WHERE "software"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "software_holding_label_idx" ON "software" USING btree ("holding_id","label","id") WHERE "software"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "users_last_name_idx" ON "users" USING btree ("last_name","id");--> statement-breakpoint
CREATE INDEX "users_holding_last_name_idx" ON "users" USING btree ("holding_id","last_name","id");