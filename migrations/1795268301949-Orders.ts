/** Sales side: orders, order positions, fees, payments, invoice addresses, cart positions, question answers, check-ins. */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class Orders1795268301949 implements MigrationInterface {
  name = 'Orders1795268301949';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "cart_position" ("id" SERIAL NOT NULL, "event_id" integer NOT NULL, "cart_id" character varying(255) NOT NULL, "datetime" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires" TIMESTAMP WITH TIME ZONE NOT NULL, "item_id" integer NOT NULL, "variation_id" integer, "price" numeric(13,2) NOT NULL, "attendee_name_parts" jsonb NOT NULL DEFAULT '{}', "attendee_email" character varying(254), "voucher_id" integer, "addon_to_id" integer, "subevent_id" integer, "includes_tax" boolean NOT NULL DEFAULT true, "seat_id" integer, "is_bundled" boolean NOT NULL DEFAULT false, "sales_channel" character varying(50) NOT NULL DEFAULT 'web', CONSTRAINT "PK_f9225602f4f081ba272890a0180" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_e943c639f910201969b9ef62be" ON "cart_position" ("cart_id") `);
    await queryRunner.query(
      `CREATE INDEX "IDX_630c45f2bb6744c7eae8a45760" ON "cart_position" ("voucher_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_cart_position_event_product" ON "cart_position" ("event_id", "item_id", "variation_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_cart_position_event_expires" ON "cart_position" ("event_id", "expires") `,
    );
    await queryRunner.query(
      `CREATE TABLE "orders" ("id" SERIAL NOT NULL, "event_id" integer NOT NULL, "organizer_id" integer NOT NULL, "code" character varying(16) NOT NULL, "status" character(1) NOT NULL DEFAULT 'n', "testmode" boolean NOT NULL DEFAULT false, "secret" character varying(32) NOT NULL, "email" character varying(254), "phone" character varying(64), "locale" character varying(32) NOT NULL DEFAULT 'en', "datetime" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires" TIMESTAMP WITH TIME ZONE NOT NULL, "total" numeric(13,2) NOT NULL DEFAULT '0', "comment" text NOT NULL DEFAULT '', "custom_followup_at" date, "checkin_attention" boolean NOT NULL DEFAULT false, "checkin_text" text, "require_approval" boolean NOT NULL DEFAULT false, "valid_if_pending" boolean NOT NULL DEFAULT false, "sales_channel" character varying(50) NOT NULL DEFAULT 'web', "cancellation_date" TIMESTAMP WITH TIME ZONE, "api_meta" jsonb NOT NULL DEFAULT '{}', "last_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_710e2d4957aa5878dfe94e4ac2f" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_642ca308ac51fea8327e593b8a" ON "orders" ("event_id") `);
    await queryRunner.query(
      `CREATE INDEX "ix_orders_event_modified" ON "orders" ("event_id", "last_modified") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_orders_organizer_code" ON "orders" ("organizer_id", "code") `,
    );
    await queryRunner.query(
      `CREATE TABLE "order_position" ("id" SERIAL NOT NULL, "order_id" integer NOT NULL, "event_id" integer NOT NULL, "positionid" integer NOT NULL, "item_id" integer NOT NULL, "variation_id" integer, "subevent_id" integer, "price" numeric(13,2) NOT NULL, "tax_rate" numeric(10,2) NOT NULL DEFAULT '0', "tax_value" numeric(13,2) NOT NULL DEFAULT '0', "tax_rule_id" integer, "attendee_name_parts" jsonb NOT NULL DEFAULT '{}', "attendee_email" character varying(254), "company" character varying(255), "street" text, "zipcode" character varying(30), "city" character varying(255), "country" character varying(2), "state" character varying(255), "voucher_id" integer, "voucher_budget_use" numeric(13,2), "addon_to_id" integer, "is_bundled" boolean NOT NULL DEFAULT false, "secret" character varying(64) NOT NULL, "pseudonymization_id" character varying(16) NOT NULL, "seat_id" integer, "canceled" boolean NOT NULL DEFAULT false, "valid_from" TIMESTAMP WITH TIME ZONE, "valid_until" TIMESTAMP WITH TIME ZONE, "discount_id" integer, CONSTRAINT "PK_81a8fc7b78058fcf47e70c11423" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_af5801c88fe109f2cc0f6e35fe" ON "order_position" ("order_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_b6032c74dd4d39823812a0aaec" ON "order_position" ("voucher_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_order_position_event_product" ON "order_position" ("event_id", "item_id", "variation_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_order_position_event_secret" ON "order_position" ("event_id", "secret") `,
    );
    await queryRunner.query(
      `CREATE TABLE "question_answer" ("id" SERIAL NOT NULL, "order_position_id" integer, "cart_position_id" integer, "question_id" integer NOT NULL, "answer" text NOT NULL, CONSTRAINT "ck_question_answer_one_position" CHECK ((order_position_id IS NULL) <> (cart_position_id IS NULL)), CONSTRAINT "PK_c1e064f8949efd78ad3c66059ba" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_41ddfa94fa787676ece2341c74" ON "question_answer" ("order_position_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_8c26f09d591e70b8587e7b6a72" ON "question_answer" ("cart_position_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_378c4919890f42e6b94c9d3704" ON "question_answer" ("question_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "order_payment" ("id" SERIAL NOT NULL, "order_id" integer NOT NULL, "local_id" integer NOT NULL, "state" character varying(20) NOT NULL, "amount" numeric(13,2) NOT NULL, "provider" character varying(100) NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "payment_date" TIMESTAMP WITH TIME ZONE, "info" jsonb NOT NULL DEFAULT '{}', CONSTRAINT "PK_28c756d4fd41223fedfbd2750e1" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_order_payment_local_id" ON "order_payment" ("order_id", "local_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "order_fee" ("id" SERIAL NOT NULL, "order_id" integer NOT NULL, "fee_type" character varying(100) NOT NULL, "value" numeric(13,2) NOT NULL, "description" character varying(190) NOT NULL DEFAULT '', "internal_type" character varying(255) NOT NULL DEFAULT '', "tax_rate" numeric(10,2) NOT NULL DEFAULT '0', "tax_value" numeric(13,2) NOT NULL DEFAULT '0', "tax_rule_id" integer, "canceled" boolean NOT NULL DEFAULT false, CONSTRAINT "PK_82816cf2eaae947ff6fc15da26d" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_e9f50a57708c1155ef9cee5ee1" ON "order_fee" ("order_id") `);
    await queryRunner.query(
      `CREATE TABLE "invoice_address" ("id" SERIAL NOT NULL, "order_id" integer NOT NULL, "is_business" boolean NOT NULL DEFAULT false, "company" character varying(255) NOT NULL DEFAULT '', "name_parts" jsonb NOT NULL DEFAULT '{}', "street" text NOT NULL DEFAULT '', "zipcode" character varying(30) NOT NULL DEFAULT '', "city" character varying(255) NOT NULL DEFAULT '', "country" character varying(2) NOT NULL DEFAULT '', "state" character varying(255) NOT NULL DEFAULT '', "vat_id" character varying(255) NOT NULL DEFAULT '', "vat_id_validated" boolean NOT NULL DEFAULT false, "custom_field" character varying(255), "internal_reference" character varying(255) NOT NULL DEFAULT '', "beneficiary" character varying(255) NOT NULL DEFAULT '', "last_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "REL_ef44289fc1c6e482d3981596d1" UNIQUE ("order_id"), CONSTRAINT "PK_fc43342be911980d8a17319eb6f" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_invoice_address_order" ON "invoice_address" ("order_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "checkin" ("id" SERIAL NOT NULL, "position_id" integer NOT NULL, "list_id" integer, "type" character varying(10) NOT NULL DEFAULT 'entry', "datetime" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "successful" boolean NOT NULL DEFAULT true, CONSTRAINT "PK_ceddab0cc0235c228a841bac49e" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_checkin_position_time" ON "checkin" ("position_id", "datetime") `,
    );
    await queryRunner.query(
      `CREATE TABLE "question_answer_option" ("answer_id" integer NOT NULL, "option_id" integer NOT NULL, CONSTRAINT "PK_b9ad86130baaf2a1d442ccab8b5" PRIMARY KEY ("answer_id", "option_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_0c6e20235c042260c67b14fe46" ON "question_answer_option" ("answer_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_6cf79118cc42c3b0fe95f922aa" ON "question_answer_option" ("option_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "cart_position" ADD CONSTRAINT "FK_645cf08c229c9dd31a70caea4ba" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "cart_position" ADD CONSTRAINT "FK_0899daa6993381dc385f13146e9" FOREIGN KEY ("item_id") REFERENCES "item"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "cart_position" ADD CONSTRAINT "FK_ca3cd4e2e76a84497d5edd2ca74" FOREIGN KEY ("variation_id") REFERENCES "item_variation"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "cart_position" ADD CONSTRAINT "FK_630c45f2bb6744c7eae8a457609" FOREIGN KEY ("voucher_id") REFERENCES "voucher"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "cart_position" ADD CONSTRAINT "FK_86e3f37eb89cb4485f1ff321d29" FOREIGN KEY ("addon_to_id") REFERENCES "cart_position"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "orders" ADD CONSTRAINT "FK_642ca308ac51fea8327e593b8ab" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "order_position" ADD CONSTRAINT "FK_af5801c88fe109f2cc0f6e35fea" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "order_position" ADD CONSTRAINT "FK_9ecd771115287966b2d8873fc6b" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "order_position" ADD CONSTRAINT "FK_7f530988540c71dfe7c379de94a" FOREIGN KEY ("item_id") REFERENCES "item"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "order_position" ADD CONSTRAINT "FK_bf9f2e148474b617dce7a044bfd" FOREIGN KEY ("variation_id") REFERENCES "item_variation"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "order_position" ADD CONSTRAINT "FK_b34235553b68896851b29fc7830" FOREIGN KEY ("tax_rule_id") REFERENCES "tax_rule"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "order_position" ADD CONSTRAINT "FK_b6032c74dd4d39823812a0aaecc" FOREIGN KEY ("voucher_id") REFERENCES "voucher"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "order_position" ADD CONSTRAINT "FK_cdfb8c9666fce03f86ac755f15b" FOREIGN KEY ("addon_to_id") REFERENCES "order_position"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "order_position" ADD CONSTRAINT "FK_44ed79e6741c0db59f3f14a8203" FOREIGN KEY ("discount_id") REFERENCES "discount"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "question_answer" ADD CONSTRAINT "FK_41ddfa94fa787676ece2341c74c" FOREIGN KEY ("order_position_id") REFERENCES "order_position"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "question_answer" ADD CONSTRAINT "FK_8c26f09d591e70b8587e7b6a72e" FOREIGN KEY ("cart_position_id") REFERENCES "cart_position"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "question_answer" ADD CONSTRAINT "FK_378c4919890f42e6b94c9d37049" FOREIGN KEY ("question_id") REFERENCES "question"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "order_payment" ADD CONSTRAINT "FK_fb74ab8e4ee3d2c6e73c261d8e3" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "order_fee" ADD CONSTRAINT "FK_e9f50a57708c1155ef9cee5ee10" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "invoice_address" ADD CONSTRAINT "FK_ef44289fc1c6e482d3981596d1d" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "checkin" ADD CONSTRAINT "FK_b39360eee7cb970130e279404c9" FOREIGN KEY ("position_id") REFERENCES "order_position"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "question_answer_option" ADD CONSTRAINT "FK_0c6e20235c042260c67b14fe465" FOREIGN KEY ("answer_id") REFERENCES "question_answer"("id") ON DELETE CASCADE ON UPDATE CASCADE`,
    );
    await queryRunner.query(
      `ALTER TABLE "question_answer_option" ADD CONSTRAINT "FK_6cf79118cc42c3b0fe95f922aa0" FOREIGN KEY ("option_id") REFERENCES "question_option"("id") ON DELETE CASCADE ON UPDATE CASCADE`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "question_answer_option" DROP CONSTRAINT "FK_6cf79118cc42c3b0fe95f922aa0"`,
    );
    await queryRunner.query(
      `ALTER TABLE "question_answer_option" DROP CONSTRAINT "FK_0c6e20235c042260c67b14fe465"`,
    );
    await queryRunner.query(`ALTER TABLE "checkin" DROP CONSTRAINT "FK_b39360eee7cb970130e279404c9"`);
    await queryRunner.query(`ALTER TABLE "invoice_address" DROP CONSTRAINT "FK_ef44289fc1c6e482d3981596d1d"`);
    await queryRunner.query(`ALTER TABLE "order_fee" DROP CONSTRAINT "FK_e9f50a57708c1155ef9cee5ee10"`);
    await queryRunner.query(`ALTER TABLE "order_payment" DROP CONSTRAINT "FK_fb74ab8e4ee3d2c6e73c261d8e3"`);
    await queryRunner.query(`ALTER TABLE "question_answer" DROP CONSTRAINT "FK_378c4919890f42e6b94c9d37049"`);
    await queryRunner.query(`ALTER TABLE "question_answer" DROP CONSTRAINT "FK_8c26f09d591e70b8587e7b6a72e"`);
    await queryRunner.query(`ALTER TABLE "question_answer" DROP CONSTRAINT "FK_41ddfa94fa787676ece2341c74c"`);
    await queryRunner.query(`ALTER TABLE "order_position" DROP CONSTRAINT "FK_44ed79e6741c0db59f3f14a8203"`);
    await queryRunner.query(`ALTER TABLE "order_position" DROP CONSTRAINT "FK_cdfb8c9666fce03f86ac755f15b"`);
    await queryRunner.query(`ALTER TABLE "order_position" DROP CONSTRAINT "FK_b6032c74dd4d39823812a0aaecc"`);
    await queryRunner.query(`ALTER TABLE "order_position" DROP CONSTRAINT "FK_b34235553b68896851b29fc7830"`);
    await queryRunner.query(`ALTER TABLE "order_position" DROP CONSTRAINT "FK_bf9f2e148474b617dce7a044bfd"`);
    await queryRunner.query(`ALTER TABLE "order_position" DROP CONSTRAINT "FK_7f530988540c71dfe7c379de94a"`);
    await queryRunner.query(`ALTER TABLE "order_position" DROP CONSTRAINT "FK_9ecd771115287966b2d8873fc6b"`);
    await queryRunner.query(`ALTER TABLE "order_position" DROP CONSTRAINT "FK_af5801c88fe109f2cc0f6e35fea"`);
    await queryRunner.query(`ALTER TABLE "orders" DROP CONSTRAINT "FK_642ca308ac51fea8327e593b8ab"`);
    await queryRunner.query(`ALTER TABLE "cart_position" DROP CONSTRAINT "FK_86e3f37eb89cb4485f1ff321d29"`);
    await queryRunner.query(`ALTER TABLE "cart_position" DROP CONSTRAINT "FK_630c45f2bb6744c7eae8a457609"`);
    await queryRunner.query(`ALTER TABLE "cart_position" DROP CONSTRAINT "FK_ca3cd4e2e76a84497d5edd2ca74"`);
    await queryRunner.query(`ALTER TABLE "cart_position" DROP CONSTRAINT "FK_0899daa6993381dc385f13146e9"`);
    await queryRunner.query(`ALTER TABLE "cart_position" DROP CONSTRAINT "FK_645cf08c229c9dd31a70caea4ba"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_6cf79118cc42c3b0fe95f922aa"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_0c6e20235c042260c67b14fe46"`);
    await queryRunner.query(`DROP TABLE "question_answer_option"`);
    await queryRunner.query(`DROP INDEX "public"."ix_checkin_position_time"`);
    await queryRunner.query(`DROP TABLE "checkin"`);
    await queryRunner.query(`DROP INDEX "public"."uq_invoice_address_order"`);
    await queryRunner.query(`DROP TABLE "invoice_address"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_e9f50a57708c1155ef9cee5ee1"`);
    await queryRunner.query(`DROP TABLE "order_fee"`);
    await queryRunner.query(`DROP INDEX "public"."uq_order_payment_local_id"`);
    await queryRunner.query(`DROP TABLE "order_payment"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_378c4919890f42e6b94c9d3704"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_8c26f09d591e70b8587e7b6a72"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_41ddfa94fa787676ece2341c74"`);
    await queryRunner.query(`DROP TABLE "question_answer"`);
    await queryRunner.query(`DROP INDEX "public"."uq_order_position_event_secret"`);
    await queryRunner.query(`DROP INDEX "public"."ix_order_position_event_product"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_b6032c74dd4d39823812a0aaec"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_af5801c88fe109f2cc0f6e35fe"`);
    await queryRunner.query(`DROP TABLE "order_position"`);
    await queryRunner.query(`DROP INDEX "public"."uq_orders_organizer_code"`);
    await queryRunner.query(`DROP INDEX "public"."ix_orders_event_modified"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_642ca308ac51fea8327e593b8a"`);
    await queryRunner.query(`DROP TABLE "orders"`);
    await queryRunner.query(`DROP INDEX "public"."ix_cart_position_event_expires"`);
    await queryRunner.query(`DROP INDEX "public"."ix_cart_position_event_product"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_630c45f2bb6744c7eae8a45760"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_e943c639f910201969b9ef62be"`);
    await queryRunner.query(`DROP TABLE "cart_position"`);
  }
}
