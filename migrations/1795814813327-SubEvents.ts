/**
 * Event series (spec "Sub-event"; compat §3.17): the dates (`subevent`), their item and variation price overrides
 * (owned by the catalogue), and the foreign keys of the `subevent_id` columns that existed before: quotas,
 * vouchers, cart positions and seats go with their date; order positions keep it (a date with orders cannot be
 * deleted).
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class SubEvents1795814813327 implements MigrationInterface {
  name = 'SubEvents1795814813327';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "subevent" ("id" SERIAL NOT NULL, "event_id" integer NOT NULL, "name" jsonb NOT NULL, "active" boolean NOT NULL DEFAULT false, "is_public" boolean NOT NULL DEFAULT true, "date_from" TIMESTAMP WITH TIME ZONE NOT NULL, "date_to" TIMESTAMP WITH TIME ZONE, "date_admission" TIMESTAMP WITH TIME ZONE, "presale_start" TIMESTAMP WITH TIME ZONE, "presale_end" TIMESTAMP WITH TIME ZONE, "location" jsonb, "geo_lat" double precision, "geo_lon" double precision, "frontpage_text" jsonb, "comment" text, "meta_data" jsonb NOT NULL DEFAULT '{}', "seating_plan_id" integer, "seat_category_mapping" jsonb NOT NULL DEFAULT '{}', "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_290225428a822a4f25afbc8439d" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_subevent_event_date_from" ON "subevent" ("event_id", "date_from") `,
    );
    await queryRunner.query(
      `CREATE TABLE "subevent_variation_price" ("id" SERIAL NOT NULL, "subevent_id" integer NOT NULL, "variation_id" integer NOT NULL, "price" numeric(13,2), CONSTRAINT "PK_15e6f03c606b5dade1d18e3df6d" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_b10fb3dcc526225e8df4f98fc2" ON "subevent_variation_price" ("variation_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_subevent_variation_price" ON "subevent_variation_price" ("subevent_id", "variation_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "subevent_item_price" ("id" SERIAL NOT NULL, "subevent_id" integer NOT NULL, "item_id" integer NOT NULL, "price" numeric(13,2), CONSTRAINT "PK_ff549e7d0877ccd29730961e0c4" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_26eb836f90658d89cd487095ec" ON "subevent_item_price" ("item_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_subevent_item_price" ON "subevent_item_price" ("subevent_id", "item_id") `,
    );
    await queryRunner.query(`CREATE INDEX "IDX_aab40bad1ef0eb2db50b285c92" ON "quota" ("subevent_id") `);
    await queryRunner.query(`CREATE INDEX "IDX_e51c0c7739eeb9b1d265a1b2ab" ON "seat" ("subevent_id") `);
    await queryRunner.query(`CREATE INDEX "IDX_84fc89f2b76a7088878d0b10f6" ON "voucher" ("subevent_id") `);
    await queryRunner.query(
      `CREATE INDEX "IDX_69300acddf5867b8b768d665d6" ON "cart_position" ("subevent_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_c44df1cc340a91e9653e4f08ef" ON "order_position" ("subevent_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "subevent" ADD CONSTRAINT "FK_37f04e06c7737c572c4441515fb" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "quota" ADD CONSTRAINT "FK_aab40bad1ef0eb2db50b285c92d" FOREIGN KEY ("subevent_id") REFERENCES "subevent"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "seat" ADD CONSTRAINT "FK_e51c0c7739eeb9b1d265a1b2aba" FOREIGN KEY ("subevent_id") REFERENCES "subevent"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "voucher" ADD CONSTRAINT "FK_84fc89f2b76a7088878d0b10f64" FOREIGN KEY ("subevent_id") REFERENCES "subevent"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "cart_position" ADD CONSTRAINT "FK_69300acddf5867b8b768d665d6b" FOREIGN KEY ("subevent_id") REFERENCES "subevent"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "order_position" ADD CONSTRAINT "FK_c44df1cc340a91e9653e4f08ef6" FOREIGN KEY ("subevent_id") REFERENCES "subevent"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "subevent_variation_price" ADD CONSTRAINT "FK_28135a985b53d537f5900e4941d" FOREIGN KEY ("subevent_id") REFERENCES "subevent"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "subevent_variation_price" ADD CONSTRAINT "FK_b10fb3dcc526225e8df4f98fc27" FOREIGN KEY ("variation_id") REFERENCES "item_variation"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "subevent_item_price" ADD CONSTRAINT "FK_e2cb9f5bc06fa489c43247b28ab" FOREIGN KEY ("subevent_id") REFERENCES "subevent"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "subevent_item_price" ADD CONSTRAINT "FK_26eb836f90658d89cd487095ecf" FOREIGN KEY ("item_id") REFERENCES "item"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "subevent_item_price" DROP CONSTRAINT "FK_26eb836f90658d89cd487095ecf"`,
    );
    await queryRunner.query(
      `ALTER TABLE "subevent_item_price" DROP CONSTRAINT "FK_e2cb9f5bc06fa489c43247b28ab"`,
    );
    await queryRunner.query(
      `ALTER TABLE "subevent_variation_price" DROP CONSTRAINT "FK_b10fb3dcc526225e8df4f98fc27"`,
    );
    await queryRunner.query(
      `ALTER TABLE "subevent_variation_price" DROP CONSTRAINT "FK_28135a985b53d537f5900e4941d"`,
    );
    await queryRunner.query(`ALTER TABLE "order_position" DROP CONSTRAINT "FK_c44df1cc340a91e9653e4f08ef6"`);
    await queryRunner.query(`ALTER TABLE "cart_position" DROP CONSTRAINT "FK_69300acddf5867b8b768d665d6b"`);
    await queryRunner.query(`ALTER TABLE "voucher" DROP CONSTRAINT "FK_84fc89f2b76a7088878d0b10f64"`);
    await queryRunner.query(`ALTER TABLE "seat" DROP CONSTRAINT "FK_e51c0c7739eeb9b1d265a1b2aba"`);
    await queryRunner.query(`ALTER TABLE "quota" DROP CONSTRAINT "FK_aab40bad1ef0eb2db50b285c92d"`);
    await queryRunner.query(`ALTER TABLE "subevent" DROP CONSTRAINT "FK_37f04e06c7737c572c4441515fb"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_c44df1cc340a91e9653e4f08ef"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_69300acddf5867b8b768d665d6"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_84fc89f2b76a7088878d0b10f6"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_e51c0c7739eeb9b1d265a1b2ab"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_aab40bad1ef0eb2db50b285c92"`);
    await queryRunner.query(`DROP INDEX "public"."uq_subevent_item_price"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_26eb836f90658d89cd487095ec"`);
    await queryRunner.query(`DROP TABLE "subevent_item_price"`);
    await queryRunner.query(`DROP INDEX "public"."uq_subevent_variation_price"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_b10fb3dcc526225e8df4f98fc2"`);
    await queryRunner.query(`DROP TABLE "subevent_variation_price"`);
    await queryRunner.query(`DROP INDEX "public"."ix_subevent_event_date_from"`);
    await queryRunner.query(`DROP TABLE "subevent"`);
  }
}
