/** Event catalogue: tax rules, membership types, questions and options, variations, add-ons, bundles, discounts, quotas, vouchers. */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class Catalogue1795267885162 implements MigrationInterface {
  name = 'Catalogue1795267885162';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "membership_type" ("id" SERIAL NOT NULL, "organizer_id" integer NOT NULL, "name" jsonb NOT NULL, "transferable" boolean NOT NULL DEFAULT false, "allow_parallel_usage" boolean NOT NULL DEFAULT false, "max_usages" integer, CONSTRAINT "PK_5c09e5b961e10506b61cf12c9f9" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_f8f4642ddcbc917b6d25f182f0" ON "membership_type" ("organizer_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "item_variation" ("id" SERIAL NOT NULL, "item_id" integer NOT NULL, "value" jsonb NOT NULL, "default_price" numeric(13,2), "free_price_suggestion" numeric(13,2), "original_price" numeric(13,2), "active" boolean NOT NULL DEFAULT true, "description" jsonb, "position" integer NOT NULL DEFAULT '0', "checkin_attention" boolean NOT NULL DEFAULT false, "checkin_text" text, "require_approval" boolean NOT NULL DEFAULT false, "require_membership" boolean NOT NULL DEFAULT false, "require_membership_hidden" boolean NOT NULL DEFAULT false, "require_membership_types" integer array NOT NULL DEFAULT '{}', "all_sales_channels" boolean NOT NULL DEFAULT true, "limit_sales_channels" text array NOT NULL DEFAULT '{}', "available_from" TIMESTAMP WITH TIME ZONE, "available_from_mode" character varying(10) NOT NULL DEFAULT 'hide', "available_until" TIMESTAMP WITH TIME ZONE, "available_until_mode" character varying(10) NOT NULL DEFAULT 'hide', "hide_without_voucher" boolean NOT NULL DEFAULT false, "meta_data" jsonb NOT NULL DEFAULT '{}', CONSTRAINT "PK_94e9797b97edc595b9e19225433" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_a18df471aebbfe1475282c7509" ON "item_variation" ("item_id") `);
    await queryRunner.query(
      `CREATE TABLE "quota" ("id" SERIAL NOT NULL, "event_id" integer NOT NULL, "subevent_id" integer, "name" character varying(200) NOT NULL, "size" integer, "close_when_sold_out" boolean NOT NULL DEFAULT false, "closed" boolean NOT NULL DEFAULT false, "release_after_exit" boolean NOT NULL DEFAULT false, "ignore_for_event_availability" boolean NOT NULL DEFAULT false, CONSTRAINT "PK_d2dc1d8a7a0bd55d48f2ed5fe09" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_f2df77e8319097ea980d2b72af" ON "quota" ("event_id") `);
    await queryRunner.query(
      `CREATE TABLE "tax_rule" ("id" SERIAL NOT NULL, "event_id" integer NOT NULL, "name" jsonb NOT NULL, "internal_name" character varying(190), "rate" numeric(10,2) NOT NULL, "code" character varying(20), "is_default" boolean NOT NULL DEFAULT false, "price_includes_tax" boolean NOT NULL DEFAULT true, "eu_reverse_charge" boolean NOT NULL DEFAULT false, "home_country" character varying(2) NOT NULL DEFAULT '', "keep_gross_if_rate_changes" boolean NOT NULL DEFAULT false, "custom_rules" jsonb, CONSTRAINT "PK_e04635f79e13b27615e2160d3e0" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_1bf8983c955d585cbb32145b33" ON "tax_rule" ("event_id") `);
    await queryRunner.query(
      `CREATE TABLE "voucher" ("id" SERIAL NOT NULL, "event_id" integer NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "code" character varying(255) NOT NULL, "max_usages" integer NOT NULL DEFAULT '1', "redeemed" integer NOT NULL DEFAULT '0', "min_usages" integer NOT NULL DEFAULT '1', "valid_until" TIMESTAMP WITH TIME ZONE, "block_quota" boolean NOT NULL DEFAULT false, "allow_ignore_quota" boolean NOT NULL DEFAULT false, "price_mode" character varying(20) NOT NULL DEFAULT 'none', "value" numeric(13,2) NOT NULL DEFAULT '0', "item_id" integer, "variation_id" integer, "quota_id" integer, "seat_id" integer, "tag" character varying(255) NOT NULL DEFAULT '', "comment" text NOT NULL DEFAULT '', "subevent_id" integer, "show_hidden_items" boolean NOT NULL DEFAULT true, "all_addons_included" boolean NOT NULL DEFAULT false, "all_bundles_included" boolean NOT NULL DEFAULT false, "budget" numeric(13,2), "budget_used" numeric(13,2) NOT NULL DEFAULT '0', CONSTRAINT "PK_677ae75f380e81c2f103a57ffaf" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_51f4aa39b669b98137d3ecdec1" ON "voucher" ("event_id") `);
    await queryRunner.query(`CREATE INDEX "IDX_eee22bc1e11c3a4c0c9a81a85e" ON "voucher" ("item_id") `);
    await queryRunner.query(`CREATE INDEX "IDX_0e719173103cd703f3e7aa9e22" ON "voucher" ("quota_id") `);
    await queryRunner.query(`CREATE INDEX "ix_voucher_blocking" ON "voucher" ("event_id", "block_quota") `);
    await queryRunner.query(
      `CREATE TABLE "question" ("id" SERIAL NOT NULL, "event_id" integer NOT NULL, "question" jsonb NOT NULL, "help_text" jsonb NOT NULL DEFAULT '{}', "type" character varying(5) NOT NULL, "required" boolean NOT NULL DEFAULT false, "position" integer NOT NULL DEFAULT '0', "identifier" character varying(190) NOT NULL, "ask_during_checkin" boolean NOT NULL DEFAULT false, "show_during_checkin" boolean NOT NULL DEFAULT false, "hidden" boolean NOT NULL DEFAULT false, "print_on_invoice" boolean NOT NULL DEFAULT false, "valid_number_min" numeric(16,6), "valid_number_max" numeric(16,6), "valid_date_min" date, "valid_date_max" date, "valid_datetime_min" TIMESTAMP WITH TIME ZONE, "valid_datetime_max" TIMESTAMP WITH TIME ZONE, "valid_file_portrait" boolean NOT NULL DEFAULT false, "valid_string_length_min" integer, "valid_string_length_max" integer, "dependency_question_id" integer, "dependency_values" text array NOT NULL DEFAULT '{}', CONSTRAINT "PK_21e5786aa0ea704ae185a79b2d5" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_7635cdefa63fb186ad4ddbc0af" ON "question" ("event_id") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_question_event_identifier" ON "question" ("event_id", "identifier") `,
    );
    await queryRunner.query(
      `CREATE TABLE "question_option" ("id" SERIAL NOT NULL, "question_id" integer NOT NULL, "event_id" integer NOT NULL, "identifier" character varying(190) NOT NULL, "answer" jsonb NOT NULL, "position" integer NOT NULL DEFAULT '0', CONSTRAINT "PK_64f8e42188891f2b0610017c8f9" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_747190c37a39feced5efcbb303" ON "question_option" ("question_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_question_option_event_identifier" ON "question_option" ("event_id", "identifier") `,
    );
    await queryRunner.query(
      `CREATE TABLE "discount" ("id" SERIAL NOT NULL, "event_id" integer NOT NULL, "active" boolean NOT NULL DEFAULT true, "internal_name" character varying(255) NOT NULL, "position" integer NOT NULL DEFAULT '0', "all_sales_channels" boolean NOT NULL DEFAULT true, "limit_sales_channels" text array NOT NULL DEFAULT '{}', "available_from" TIMESTAMP WITH TIME ZONE, "available_until" TIMESTAMP WITH TIME ZONE, "subevent_mode" character varying(10) NOT NULL DEFAULT 'mixed', "subevent_date_from" TIMESTAMP WITH TIME ZONE, "subevent_date_until" TIMESTAMP WITH TIME ZONE, "condition_all_products" boolean NOT NULL DEFAULT true, "condition_apply_to_addons" boolean NOT NULL DEFAULT true, "condition_ignore_voucher_discounted" boolean NOT NULL DEFAULT false, "condition_min_count" integer NOT NULL DEFAULT '0', "condition_min_value" numeric(13,2) NOT NULL DEFAULT '0', "benefit_discount_matching_percent" numeric(10,2) NOT NULL DEFAULT '0', "benefit_only_apply_to_cheapest_n_matches" integer, "benefit_same_products" boolean NOT NULL DEFAULT true, "benefit_apply_to_addons" boolean NOT NULL DEFAULT true, "benefit_ignore_voucher_discounted" boolean NOT NULL DEFAULT false, CONSTRAINT "PK_d05d8712e429673e459e7f1cddb" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_6035973ebfd503b148c125eaf1" ON "discount" ("event_id") `);
    await queryRunner.query(
      `CREATE TABLE "item_bundle" ("id" SERIAL NOT NULL, "base_item_id" integer NOT NULL, "bundled_item_id" integer NOT NULL, "bundled_variation_id" integer, "count" integer NOT NULL DEFAULT '1', "designated_price" numeric(13,2) NOT NULL DEFAULT '0', CONSTRAINT "PK_5eb2ae78061c828be889a378145" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_48fa603983ace2b9357558f95d" ON "item_bundle" ("base_item_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_db76b99516426d8f10a35fb4d8" ON "item_bundle" ("bundled_item_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "item_addon" ("id" SERIAL NOT NULL, "base_item_id" integer NOT NULL, "addon_category_id" integer NOT NULL, "min_count" integer NOT NULL DEFAULT '0', "max_count" integer NOT NULL DEFAULT '1', "position" integer NOT NULL DEFAULT '0', "multi_allowed" boolean NOT NULL DEFAULT false, "price_included" boolean NOT NULL DEFAULT false, CONSTRAINT "PK_ffb46b0bb8018fbbae29e476a8d" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_f51d078da0a7dfc1c1a7252c4f" ON "item_addon" ("base_item_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_d9a0f15f9846688e769c994568" ON "item_addon" ("addon_category_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_item_addon_category" ON "item_addon" ("base_item_id", "addon_category_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "quota_item" ("quota_id" integer NOT NULL, "item_id" integer NOT NULL, CONSTRAINT "PK_62bf20fcd4209dbe2c06a4639f4" PRIMARY KEY ("quota_id", "item_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_3365be3e9ff82b5868f6f0b933" ON "quota_item" ("quota_id") `);
    await queryRunner.query(`CREATE INDEX "IDX_113d89c52e2dae5dd7d3e4423c" ON "quota_item" ("item_id") `);
    await queryRunner.query(
      `CREATE TABLE "quota_variation" ("quota_id" integer NOT NULL, "variation_id" integer NOT NULL, CONSTRAINT "PK_b5e7a57db78e23318da1572c6e8" PRIMARY KEY ("quota_id", "variation_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_0a19d69ddb52c93c5e197cfd47" ON "quota_variation" ("quota_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_fce6199824c3439c98395339a0" ON "quota_variation" ("variation_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "question_item" ("question_id" integer NOT NULL, "item_id" integer NOT NULL, CONSTRAINT "PK_1386ae9b64b5a09b71cf65a09a5" PRIMARY KEY ("question_id", "item_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_e671f7d02181964d56bf3b8f39" ON "question_item" ("question_id") `,
    );
    await queryRunner.query(`CREATE INDEX "IDX_4bb0d00bcb6c6231576a64ad78" ON "question_item" ("item_id") `);
    await queryRunner.query(
      `CREATE TABLE "discount_condition_item" ("discount_id" integer NOT NULL, "item_id" integer NOT NULL, CONSTRAINT "PK_c8fc5c0b42c6a2ebedf63b03408" PRIMARY KEY ("discount_id", "item_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_0ca3c203ef9d4f6e12583f6483" ON "discount_condition_item" ("discount_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_70e79fe8e755ee228ff216b281" ON "discount_condition_item" ("item_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "discount_benefit_item" ("discount_id" integer NOT NULL, "item_id" integer NOT NULL, CONSTRAINT "PK_55d77c6915e2f8904240f53ddf2" PRIMARY KEY ("discount_id", "item_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_b0af4a7403e5d23609781d1511" ON "discount_benefit_item" ("discount_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_5818b75f1adbb80111cd284dd0" ON "discount_benefit_item" ("item_id") `,
    );
    await queryRunner.query(`CREATE INDEX "IDX_93db7928cc4b80e2c719423450" ON "item" ("tax_rule_id") `);
    await queryRunner.query(
      `ALTER TABLE "membership_type" ADD CONSTRAINT "FK_f8f4642ddcbc917b6d25f182f0f" FOREIGN KEY ("organizer_id") REFERENCES "organizer"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "item_variation" ADD CONSTRAINT "FK_a18df471aebbfe1475282c75093" FOREIGN KEY ("item_id") REFERENCES "item"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "quota" ADD CONSTRAINT "FK_f2df77e8319097ea980d2b72afe" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "tax_rule" ADD CONSTRAINT "FK_1bf8983c955d585cbb32145b331" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "item" ADD CONSTRAINT "FK_93db7928cc4b80e2c7194234500" FOREIGN KEY ("tax_rule_id") REFERENCES "tax_rule"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "item" ADD CONSTRAINT "FK_ac45eb95e687a8f17ffba15290e" FOREIGN KEY ("hidden_if_available") REFERENCES "quota"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "item" ADD CONSTRAINT "FK_ec7fbd83069c89ce63ae94caa89" FOREIGN KEY ("hidden_if_item_available") REFERENCES "item"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "item" ADD CONSTRAINT "FK_43a17f0d378afb2e029584c5300" FOREIGN KEY ("grant_membership_type") REFERENCES "membership_type"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "voucher" ADD CONSTRAINT "FK_51f4aa39b669b98137d3ecdec1b" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "voucher" ADD CONSTRAINT "FK_eee22bc1e11c3a4c0c9a81a85e4" FOREIGN KEY ("item_id") REFERENCES "item"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "voucher" ADD CONSTRAINT "FK_1e66f19e50f4a714354fb727a88" FOREIGN KEY ("variation_id") REFERENCES "item_variation"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "voucher" ADD CONSTRAINT "FK_0e719173103cd703f3e7aa9e221" FOREIGN KEY ("quota_id") REFERENCES "quota"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "question" ADD CONSTRAINT "FK_7635cdefa63fb186ad4ddbc0afe" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "question" ADD CONSTRAINT "FK_97db81283dc8fd0e37acd6834da" FOREIGN KEY ("dependency_question_id") REFERENCES "question"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "question_option" ADD CONSTRAINT "FK_747190c37a39feced5efcbb303f" FOREIGN KEY ("question_id") REFERENCES "question"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "discount" ADD CONSTRAINT "FK_6035973ebfd503b148c125eaf1b" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "item_bundle" ADD CONSTRAINT "FK_48fa603983ace2b9357558f95dc" FOREIGN KEY ("base_item_id") REFERENCES "item"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "item_bundle" ADD CONSTRAINT "FK_db76b99516426d8f10a35fb4d84" FOREIGN KEY ("bundled_item_id") REFERENCES "item"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "item_bundle" ADD CONSTRAINT "FK_18887f130f8f437eb258e20f013" FOREIGN KEY ("bundled_variation_id") REFERENCES "item_variation"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "item_addon" ADD CONSTRAINT "FK_f51d078da0a7dfc1c1a7252c4fa" FOREIGN KEY ("base_item_id") REFERENCES "item"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "item_addon" ADD CONSTRAINT "FK_d9a0f15f9846688e769c9945683" FOREIGN KEY ("addon_category_id") REFERENCES "item_category"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "quota_item" ADD CONSTRAINT "FK_3365be3e9ff82b5868f6f0b933c" FOREIGN KEY ("quota_id") REFERENCES "quota"("id") ON DELETE CASCADE ON UPDATE CASCADE`,
    );
    await queryRunner.query(
      `ALTER TABLE "quota_item" ADD CONSTRAINT "FK_113d89c52e2dae5dd7d3e4423cb" FOREIGN KEY ("item_id") REFERENCES "item"("id") ON DELETE CASCADE ON UPDATE CASCADE`,
    );
    await queryRunner.query(
      `ALTER TABLE "quota_variation" ADD CONSTRAINT "FK_0a19d69ddb52c93c5e197cfd477" FOREIGN KEY ("quota_id") REFERENCES "quota"("id") ON DELETE CASCADE ON UPDATE CASCADE`,
    );
    await queryRunner.query(
      `ALTER TABLE "quota_variation" ADD CONSTRAINT "FK_fce6199824c3439c98395339a0c" FOREIGN KEY ("variation_id") REFERENCES "item_variation"("id") ON DELETE CASCADE ON UPDATE CASCADE`,
    );
    await queryRunner.query(
      `ALTER TABLE "question_item" ADD CONSTRAINT "FK_e671f7d02181964d56bf3b8f399" FOREIGN KEY ("question_id") REFERENCES "question"("id") ON DELETE CASCADE ON UPDATE CASCADE`,
    );
    await queryRunner.query(
      `ALTER TABLE "question_item" ADD CONSTRAINT "FK_4bb0d00bcb6c6231576a64ad78d" FOREIGN KEY ("item_id") REFERENCES "item"("id") ON DELETE CASCADE ON UPDATE CASCADE`,
    );
    await queryRunner.query(
      `ALTER TABLE "discount_condition_item" ADD CONSTRAINT "FK_0ca3c203ef9d4f6e12583f6483a" FOREIGN KEY ("discount_id") REFERENCES "discount"("id") ON DELETE CASCADE ON UPDATE CASCADE`,
    );
    await queryRunner.query(
      `ALTER TABLE "discount_condition_item" ADD CONSTRAINT "FK_70e79fe8e755ee228ff216b281a" FOREIGN KEY ("item_id") REFERENCES "item"("id") ON DELETE CASCADE ON UPDATE CASCADE`,
    );
    await queryRunner.query(
      `ALTER TABLE "discount_benefit_item" ADD CONSTRAINT "FK_b0af4a7403e5d23609781d15115" FOREIGN KEY ("discount_id") REFERENCES "discount"("id") ON DELETE CASCADE ON UPDATE CASCADE`,
    );
    await queryRunner.query(
      `ALTER TABLE "discount_benefit_item" ADD CONSTRAINT "FK_5818b75f1adbb80111cd284dd0d" FOREIGN KEY ("item_id") REFERENCES "item"("id") ON DELETE CASCADE ON UPDATE CASCADE`,
    );
    // Case-insensitive voucher code uniqueness (the entity declares it with synchronize: false).
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_voucher_event_code_ci" ON "voucher" ("event_id", upper("code"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."uq_voucher_event_code_ci"`);
    await queryRunner.query(
      `ALTER TABLE "discount_benefit_item" DROP CONSTRAINT "FK_5818b75f1adbb80111cd284dd0d"`,
    );
    await queryRunner.query(
      `ALTER TABLE "discount_benefit_item" DROP CONSTRAINT "FK_b0af4a7403e5d23609781d15115"`,
    );
    await queryRunner.query(
      `ALTER TABLE "discount_condition_item" DROP CONSTRAINT "FK_70e79fe8e755ee228ff216b281a"`,
    );
    await queryRunner.query(
      `ALTER TABLE "discount_condition_item" DROP CONSTRAINT "FK_0ca3c203ef9d4f6e12583f6483a"`,
    );
    await queryRunner.query(`ALTER TABLE "question_item" DROP CONSTRAINT "FK_4bb0d00bcb6c6231576a64ad78d"`);
    await queryRunner.query(`ALTER TABLE "question_item" DROP CONSTRAINT "FK_e671f7d02181964d56bf3b8f399"`);
    await queryRunner.query(`ALTER TABLE "quota_variation" DROP CONSTRAINT "FK_fce6199824c3439c98395339a0c"`);
    await queryRunner.query(`ALTER TABLE "quota_variation" DROP CONSTRAINT "FK_0a19d69ddb52c93c5e197cfd477"`);
    await queryRunner.query(`ALTER TABLE "quota_item" DROP CONSTRAINT "FK_113d89c52e2dae5dd7d3e4423cb"`);
    await queryRunner.query(`ALTER TABLE "quota_item" DROP CONSTRAINT "FK_3365be3e9ff82b5868f6f0b933c"`);
    await queryRunner.query(`ALTER TABLE "item_addon" DROP CONSTRAINT "FK_d9a0f15f9846688e769c9945683"`);
    await queryRunner.query(`ALTER TABLE "item_addon" DROP CONSTRAINT "FK_f51d078da0a7dfc1c1a7252c4fa"`);
    await queryRunner.query(`ALTER TABLE "item_bundle" DROP CONSTRAINT "FK_18887f130f8f437eb258e20f013"`);
    await queryRunner.query(`ALTER TABLE "item_bundle" DROP CONSTRAINT "FK_db76b99516426d8f10a35fb4d84"`);
    await queryRunner.query(`ALTER TABLE "item_bundle" DROP CONSTRAINT "FK_48fa603983ace2b9357558f95dc"`);
    await queryRunner.query(`ALTER TABLE "discount" DROP CONSTRAINT "FK_6035973ebfd503b148c125eaf1b"`);
    await queryRunner.query(`ALTER TABLE "question_option" DROP CONSTRAINT "FK_747190c37a39feced5efcbb303f"`);
    await queryRunner.query(`ALTER TABLE "question" DROP CONSTRAINT "FK_97db81283dc8fd0e37acd6834da"`);
    await queryRunner.query(`ALTER TABLE "question" DROP CONSTRAINT "FK_7635cdefa63fb186ad4ddbc0afe"`);
    await queryRunner.query(`ALTER TABLE "voucher" DROP CONSTRAINT "FK_0e719173103cd703f3e7aa9e221"`);
    await queryRunner.query(`ALTER TABLE "voucher" DROP CONSTRAINT "FK_1e66f19e50f4a714354fb727a88"`);
    await queryRunner.query(`ALTER TABLE "voucher" DROP CONSTRAINT "FK_eee22bc1e11c3a4c0c9a81a85e4"`);
    await queryRunner.query(`ALTER TABLE "voucher" DROP CONSTRAINT "FK_51f4aa39b669b98137d3ecdec1b"`);
    await queryRunner.query(`ALTER TABLE "item" DROP CONSTRAINT "FK_43a17f0d378afb2e029584c5300"`);
    await queryRunner.query(`ALTER TABLE "item" DROP CONSTRAINT "FK_ec7fbd83069c89ce63ae94caa89"`);
    await queryRunner.query(`ALTER TABLE "item" DROP CONSTRAINT "FK_ac45eb95e687a8f17ffba15290e"`);
    await queryRunner.query(`ALTER TABLE "item" DROP CONSTRAINT "FK_93db7928cc4b80e2c7194234500"`);
    await queryRunner.query(`ALTER TABLE "tax_rule" DROP CONSTRAINT "FK_1bf8983c955d585cbb32145b331"`);
    await queryRunner.query(`ALTER TABLE "quota" DROP CONSTRAINT "FK_f2df77e8319097ea980d2b72afe"`);
    await queryRunner.query(`ALTER TABLE "item_variation" DROP CONSTRAINT "FK_a18df471aebbfe1475282c75093"`);
    await queryRunner.query(`ALTER TABLE "membership_type" DROP CONSTRAINT "FK_f8f4642ddcbc917b6d25f182f0f"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_93db7928cc4b80e2c719423450"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_5818b75f1adbb80111cd284dd0"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_b0af4a7403e5d23609781d1511"`);
    await queryRunner.query(`DROP TABLE "discount_benefit_item"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_70e79fe8e755ee228ff216b281"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_0ca3c203ef9d4f6e12583f6483"`);
    await queryRunner.query(`DROP TABLE "discount_condition_item"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_4bb0d00bcb6c6231576a64ad78"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_e671f7d02181964d56bf3b8f39"`);
    await queryRunner.query(`DROP TABLE "question_item"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_fce6199824c3439c98395339a0"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_0a19d69ddb52c93c5e197cfd47"`);
    await queryRunner.query(`DROP TABLE "quota_variation"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_113d89c52e2dae5dd7d3e4423c"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_3365be3e9ff82b5868f6f0b933"`);
    await queryRunner.query(`DROP TABLE "quota_item"`);
    await queryRunner.query(`DROP INDEX "public"."uq_item_addon_category"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_d9a0f15f9846688e769c994568"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_f51d078da0a7dfc1c1a7252c4f"`);
    await queryRunner.query(`DROP TABLE "item_addon"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_db76b99516426d8f10a35fb4d8"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_48fa603983ace2b9357558f95d"`);
    await queryRunner.query(`DROP TABLE "item_bundle"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_6035973ebfd503b148c125eaf1"`);
    await queryRunner.query(`DROP TABLE "discount"`);
    await queryRunner.query(`DROP INDEX "public"."uq_question_option_event_identifier"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_747190c37a39feced5efcbb303"`);
    await queryRunner.query(`DROP TABLE "question_option"`);
    await queryRunner.query(`DROP INDEX "public"."uq_question_event_identifier"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_7635cdefa63fb186ad4ddbc0af"`);
    await queryRunner.query(`DROP TABLE "question"`);
    await queryRunner.query(`DROP INDEX "public"."ix_voucher_blocking"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_0e719173103cd703f3e7aa9e22"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_eee22bc1e11c3a4c0c9a81a85e"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_51f4aa39b669b98137d3ecdec1"`);
    await queryRunner.query(`DROP TABLE "voucher"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_1bf8983c955d585cbb32145b33"`);
    await queryRunner.query(`DROP TABLE "tax_rule"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_f2df77e8319097ea980d2b72af"`);
    await queryRunner.query(`DROP TABLE "quota"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_a18df471aebbfe1475282c7509"`);
    await queryRunner.query(`DROP TABLE "item_variation"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_f8f4642ddcbc917b6d25f182f0"`);
    await queryRunner.query(`DROP TABLE "membership_type"`);
  }
}
