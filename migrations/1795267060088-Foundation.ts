/** Foundation schema: organizers, events, users, teams, tokens, invites, categories, items, audit log, mail outbox. */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class Foundation1795267060088 implements MigrationInterface {
  name = 'Foundation1795267060088';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "user_account" ("id" SERIAL NOT NULL, "email" character varying(254) NOT NULL, "fullname" character varying(255), "password_hash" character varying(255) NOT NULL, "locale" character varying(50) NOT NULL DEFAULT 'en', "timezone" character varying(100) NOT NULL DEFAULT 'UTC', "is_staff" boolean NOT NULL DEFAULT false, "is_active" boolean NOT NULL DEFAULT true, "requires2fa" boolean NOT NULL DEFAULT false, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6acfec7285fdf9f463462de3e9f" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "organizer" ("id" SERIAL NOT NULL, "name" character varying(200) NOT NULL, "slug" character varying(50) NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_b59551a131f312443b992f90434" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_organizer_slug" ON "organizer" ("slug") `);
    await queryRunner.query(
      `CREATE TABLE "event" ("id" SERIAL NOT NULL, "organizer_id" integer NOT NULL, "name" jsonb NOT NULL, "slug" character varying(50) NOT NULL, "live" boolean NOT NULL DEFAULT false, "testmode" boolean NOT NULL DEFAULT false, "currency" character varying(10) NOT NULL, "date_from" TIMESTAMP WITH TIME ZONE NOT NULL, "date_to" TIMESTAMP WITH TIME ZONE, "date_admission" TIMESTAMP WITH TIME ZONE, "is_public" boolean NOT NULL DEFAULT true, "presale_start" TIMESTAMP WITH TIME ZONE, "presale_end" TIMESTAMP WITH TIME ZONE, "location" jsonb, "geo_lat" double precision, "geo_lon" double precision, "has_subevents" boolean NOT NULL DEFAULT false, "timezone" character varying(100) NOT NULL DEFAULT 'UTC', "meta_data" jsonb NOT NULL DEFAULT '{}', "seating_plan_id" integer, "seat_category_mapping" jsonb NOT NULL DEFAULT '{}', "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_30c2f3bbaf6d34a55f8ae6e4614" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_fbc9b6120d8394996948eb5325" ON "event" ("organizer_id") `);
    await queryRunner.query(
      `CREATE TABLE "team" ("id" SERIAL NOT NULL, "organizer_id" integer NOT NULL, "name" character varying(190) NOT NULL, "all_events" boolean NOT NULL DEFAULT false, "require2fa" boolean NOT NULL DEFAULT false, "all_event_permissions" boolean NOT NULL DEFAULT false, "limit_event_permissions" text array NOT NULL DEFAULT '{}', "all_organizer_permissions" boolean NOT NULL DEFAULT false, "limit_organizer_permissions" text array NOT NULL DEFAULT '{}', CONSTRAINT "PK_f57d8293406df4af348402e4b74" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_3df0a7f8c48f9c18ca278ec46d" ON "team" ("organizer_id") `);
    await queryRunner.query(
      `CREATE TABLE "team_invite" ("id" SERIAL NOT NULL, "team_id" integer NOT NULL, "email" character varying(254) NOT NULL, "token" character varying(64) NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_deb3080b1edfad7d043d6db876e" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_0b61d202c36c44a4c5d51331bc" ON "team_invite" ("team_id") `);
    await queryRunner.query(
      `CREATE TABLE "team_api_token" ("id" SERIAL NOT NULL, "team_id" integer NOT NULL, "name" character varying(190) NOT NULL, "token_hash" character(64) NOT NULL, "active" boolean NOT NULL DEFAULT true, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_8fbfe658e7c442fb2554aee2eab" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_f76704bbe153163f8907fee542" ON "team_api_token" ("team_id") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_team_api_token_hash" ON "team_api_token" ("token_hash") `,
    );
    await queryRunner.query(
      `CREATE TABLE "outgoing_mail" ("id" SERIAL NOT NULL, "organizer_id" integer, "event_id" integer, "recipient" character varying(254) NOT NULL, "subject" character varying(998) NOT NULL, "body" text NOT NULL, "status" character varying(10) NOT NULL DEFAULT 'queued', "error" text, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "sent_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_ed85381cac829352bf9e8238ff8" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_7f701eabd09f85e9e614156513" ON "outgoing_mail" ("organizer_id") `,
    );
    await queryRunner.query(`CREATE INDEX "IDX_501b890580ba00d6c8e3a0ab4c" ON "outgoing_mail" ("status") `);
    await queryRunner.query(
      `CREATE TABLE "log_entry" ("id" BIGSERIAL NOT NULL, "organizer_id" integer NOT NULL, "event_id" integer, "content_type" character varying(50) NOT NULL, "object_id" integer, "action_type" character varying(100) NOT NULL, "data" jsonb NOT NULL DEFAULT '{}', "user_id" integer, "api_token_id" integer, "datetime" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_45e2f8fa5e70dd60266d2f94d49" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_1a902d5626c17a5e762691b1c1" ON "log_entry" ("organizer_id") `);
    await queryRunner.query(
      `CREATE INDEX "ix_log_entry_event_type_time" ON "log_entry" ("event_id", "content_type", "datetime") `,
    );
    await queryRunner.query(
      `CREATE TABLE "item_category" ("id" SERIAL NOT NULL, "event_id" integer NOT NULL, "name" jsonb NOT NULL, "internal_name" character varying(255), "description" jsonb NOT NULL DEFAULT '{}', "position" integer NOT NULL DEFAULT '0', "is_addon" boolean NOT NULL DEFAULT false, "cross_selling_mode" character varying(10), "cross_selling_condition" character varying(10), "cross_selling_match_products" integer array NOT NULL DEFAULT '{}', CONSTRAINT "PK_91ba90f150e8804bdaad7b17ff8" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_b0b55e9ce43ee492d69851deaa" ON "item_category" ("event_id") `);
    await queryRunner.query(
      `CREATE TABLE "item" ("id" SERIAL NOT NULL, "event_id" integer NOT NULL, "name" jsonb NOT NULL, "internal_name" character varying(255), "default_price" numeric(13,2) NOT NULL, "category_id" integer, "active" boolean NOT NULL DEFAULT true, "description" jsonb, "free_price" boolean NOT NULL DEFAULT false, "free_price_suggestion" numeric(13,2), "tax_rule_id" integer, "admission" boolean NOT NULL DEFAULT false, "personalized" boolean NOT NULL DEFAULT false, "issue_giftcard" boolean NOT NULL DEFAULT false, "position" integer NOT NULL DEFAULT '0', "generate_tickets" boolean, "allow_waitinglist" boolean NOT NULL DEFAULT true, "available_from" TIMESTAMP WITH TIME ZONE, "available_from_mode" character varying(10) NOT NULL DEFAULT 'hide', "available_until" TIMESTAMP WITH TIME ZONE, "available_until_mode" character varying(10) NOT NULL DEFAULT 'hide', "require_bundling" boolean NOT NULL DEFAULT false, "require_voucher" boolean NOT NULL DEFAULT false, "hide_without_voucher" boolean NOT NULL DEFAULT false, "allow_cancel" boolean NOT NULL DEFAULT true, "min_per_order" integer, "max_per_order" integer, "hidden_if_available" integer, "hidden_if_item_available" integer, "checkin_attention" boolean NOT NULL DEFAULT false, "checkin_text" text, "has_variations" boolean NOT NULL DEFAULT false, "require_approval" boolean NOT NULL DEFAULT false, "show_quota_left" boolean, "original_price" numeric(13,2), "meta_data" jsonb NOT NULL DEFAULT '{}', "require_membership" boolean NOT NULL DEFAULT false, "require_membership_hidden" boolean NOT NULL DEFAULT false, "require_membership_types" integer array NOT NULL DEFAULT '{}', "grant_membership_type" integer, "grant_membership_duration_like_event" boolean NOT NULL DEFAULT true, "grant_membership_duration_days" integer NOT NULL DEFAULT '0', "grant_membership_duration_months" integer NOT NULL DEFAULT '0', "media_policy" character varying(20), "media_type" character varying(20), "validity_mode" character varying(20), "validity_fixed_from" TIMESTAMP WITH TIME ZONE, "validity_fixed_until" TIMESTAMP WITH TIME ZONE, "validity_dynamic_duration_minutes" integer, "validity_dynamic_duration_hours" integer, "validity_dynamic_duration_days" integer, "validity_dynamic_duration_months" integer, "validity_dynamic_start_choice" boolean NOT NULL DEFAULT false, "validity_dynamic_start_choice_day_limit" integer, "all_sales_channels" boolean NOT NULL DEFAULT true, "limit_sales_channels" text array NOT NULL DEFAULT '{}', CONSTRAINT "PK_d3c0c71f23e7adcf952a1d13423" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_1f94dd9f6e218ceb8fab687034" ON "item" ("event_id") `);
    await queryRunner.query(`CREATE INDEX "IDX_91ba90f150e8804bdaad7b17ff" ON "item" ("category_id") `);
    await queryRunner.query(
      `CREATE TABLE "team_limit_event" ("team_id" integer NOT NULL, "event_id" integer NOT NULL, CONSTRAINT "PK_bca80f3f652716a77af647cec40" PRIMARY KEY ("team_id", "event_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_986d5375dc8a97a47204083dae" ON "team_limit_event" ("team_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_d2694d2e2712b8d831e8660388" ON "team_limit_event" ("event_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "team_member" ("team_id" integer NOT NULL, "user_id" integer NOT NULL, CONSTRAINT "PK_34169355c6d1744228f5bb75549" PRIMARY KEY ("team_id", "user_id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_a1b5b4f5fa1b7f890d0a278748" ON "team_member" ("team_id") `);
    await queryRunner.query(`CREATE INDEX "IDX_0724b86622f89c433dee4cd8b1" ON "team_member" ("user_id") `);
    await queryRunner.query(
      `ALTER TABLE "event" ADD CONSTRAINT "FK_fbc9b6120d8394996948eb5325b" FOREIGN KEY ("organizer_id") REFERENCES "organizer"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "team" ADD CONSTRAINT "FK_3df0a7f8c48f9c18ca278ec46d8" FOREIGN KEY ("organizer_id") REFERENCES "organizer"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "team_invite" ADD CONSTRAINT "FK_0b61d202c36c44a4c5d51331bc2" FOREIGN KEY ("team_id") REFERENCES "team"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "team_api_token" ADD CONSTRAINT "FK_f76704bbe153163f8907fee542f" FOREIGN KEY ("team_id") REFERENCES "team"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "item_category" ADD CONSTRAINT "FK_b0b55e9ce43ee492d69851deaad" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "item" ADD CONSTRAINT "FK_1f94dd9f6e218ceb8fab6870342" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "item" ADD CONSTRAINT "FK_91ba90f150e8804bdaad7b17ff8" FOREIGN KEY ("category_id") REFERENCES "item_category"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "team_limit_event" ADD CONSTRAINT "FK_986d5375dc8a97a47204083dae6" FOREIGN KEY ("team_id") REFERENCES "team"("id") ON DELETE CASCADE ON UPDATE CASCADE`,
    );
    await queryRunner.query(
      `ALTER TABLE "team_limit_event" ADD CONSTRAINT "FK_d2694d2e2712b8d831e86603882" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE CASCADE`,
    );
    await queryRunner.query(
      `ALTER TABLE "team_member" ADD CONSTRAINT "FK_a1b5b4f5fa1b7f890d0a278748b" FOREIGN KEY ("team_id") REFERENCES "team"("id") ON DELETE CASCADE ON UPDATE CASCADE`,
    );
    await queryRunner.query(
      `ALTER TABLE "team_member" ADD CONSTRAINT "FK_0724b86622f89c433dee4cd8b17" FOREIGN KEY ("user_id") REFERENCES "user_account"("id") ON DELETE CASCADE ON UPDATE CASCADE`,
    );
    // Case-insensitive uniqueness (entities declare these with synchronize: false).
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_event_organizer_slug_ci" ON "event" ("organizer_id", lower("slug"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_user_account_email_ci" ON "user_account" (lower("email"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."uq_user_account_email_ci"`);
    await queryRunner.query(`DROP INDEX "public"."uq_event_organizer_slug_ci"`);
    await queryRunner.query(`ALTER TABLE "team_member" DROP CONSTRAINT "FK_0724b86622f89c433dee4cd8b17"`);
    await queryRunner.query(`ALTER TABLE "team_member" DROP CONSTRAINT "FK_a1b5b4f5fa1b7f890d0a278748b"`);
    await queryRunner.query(
      `ALTER TABLE "team_limit_event" DROP CONSTRAINT "FK_d2694d2e2712b8d831e86603882"`,
    );
    await queryRunner.query(
      `ALTER TABLE "team_limit_event" DROP CONSTRAINT "FK_986d5375dc8a97a47204083dae6"`,
    );
    await queryRunner.query(`ALTER TABLE "item" DROP CONSTRAINT "FK_91ba90f150e8804bdaad7b17ff8"`);
    await queryRunner.query(`ALTER TABLE "item" DROP CONSTRAINT "FK_1f94dd9f6e218ceb8fab6870342"`);
    await queryRunner.query(`ALTER TABLE "item_category" DROP CONSTRAINT "FK_b0b55e9ce43ee492d69851deaad"`);
    await queryRunner.query(`ALTER TABLE "team_api_token" DROP CONSTRAINT "FK_f76704bbe153163f8907fee542f"`);
    await queryRunner.query(`ALTER TABLE "team_invite" DROP CONSTRAINT "FK_0b61d202c36c44a4c5d51331bc2"`);
    await queryRunner.query(`ALTER TABLE "team" DROP CONSTRAINT "FK_3df0a7f8c48f9c18ca278ec46d8"`);
    await queryRunner.query(`ALTER TABLE "event" DROP CONSTRAINT "FK_fbc9b6120d8394996948eb5325b"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_0724b86622f89c433dee4cd8b1"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_a1b5b4f5fa1b7f890d0a278748"`);
    await queryRunner.query(`DROP TABLE "team_member"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_d2694d2e2712b8d831e8660388"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_986d5375dc8a97a47204083dae"`);
    await queryRunner.query(`DROP TABLE "team_limit_event"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_91ba90f150e8804bdaad7b17ff"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_1f94dd9f6e218ceb8fab687034"`);
    await queryRunner.query(`DROP TABLE "item"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_b0b55e9ce43ee492d69851deaa"`);
    await queryRunner.query(`DROP TABLE "item_category"`);
    await queryRunner.query(`DROP INDEX "public"."ix_log_entry_event_type_time"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_1a902d5626c17a5e762691b1c1"`);
    await queryRunner.query(`DROP TABLE "log_entry"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_501b890580ba00d6c8e3a0ab4c"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_7f701eabd09f85e9e614156513"`);
    await queryRunner.query(`DROP TABLE "outgoing_mail"`);
    await queryRunner.query(`DROP INDEX "public"."uq_team_api_token_hash"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_f76704bbe153163f8907fee542"`);
    await queryRunner.query(`DROP TABLE "team_api_token"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_0b61d202c36c44a4c5d51331bc"`);
    await queryRunner.query(`DROP TABLE "team_invite"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_3df0a7f8c48f9c18ca278ec46d"`);
    await queryRunner.query(`DROP TABLE "team"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_fbc9b6120d8394996948eb5325"`);
    await queryRunner.query(`DROP TABLE "event"`);
    await queryRunner.query(`DROP INDEX "public"."uq_organizer_slug"`);
    await queryRunner.query(`DROP TABLE "organizer"`);
    await queryRunner.query(`DROP TABLE "user_account"`);
  }
}
