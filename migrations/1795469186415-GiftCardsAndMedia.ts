/** Gift cards, their transactions and acceptance between organizers (giftcards/); reusable media (media/). */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class GiftCardsAndMedia1795469186415 implements MigrationInterface {
  name = 'GiftCardsAndMedia1795469186415';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "giftcard" ("id" SERIAL NOT NULL, "issuer_id" integer NOT NULL, "secret" character varying(190) NOT NULL, "issuance" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "value" numeric(13,2) NOT NULL DEFAULT '0', "currency" character varying(3) NOT NULL, "testmode" boolean NOT NULL DEFAULT false, "expires" TIMESTAMP WITH TIME ZONE, "conditions" text, "owner_ticket_id" integer, CONSTRAINT "ck_giftcard_value_not_negative" CHECK ("value" >= 0), CONSTRAINT "PK_99c9597407411ab41e20c9d01e4" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_deb1a42402a010c6487406569f" ON "giftcard" ("owner_ticket_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_giftcard_issuer_secret" ON "giftcard" ("issuer_id", "secret") `,
    );
    await queryRunner.query(
      `CREATE TABLE "reusable_medium" ("id" SERIAL NOT NULL, "organizer_id" integer NOT NULL, "type" character varying(32) NOT NULL, "identifier" character varying(200) NOT NULL, "active" boolean NOT NULL DEFAULT true, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires" TIMESTAMP WITH TIME ZONE, "customer" character varying(190), "linked_orderposition_id" integer, "linked_giftcard_id" integer, "info" jsonb NOT NULL DEFAULT '{}', "notes" text, CONSTRAINT "PK_cd9078502e5451c5b34cf09ec0b" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_84b1ce58e2ca1f9b63bd4e7989" ON "reusable_medium" ("linked_orderposition_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_534ceee7e6ed0db6cdd6e3e2c2" ON "reusable_medium" ("linked_giftcard_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_reusable_medium_organizer_updated" ON "reusable_medium" ("organizer_id", "updated") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_reusable_medium_organizer_type_identifier" ON "reusable_medium" ("organizer_id", "type", "identifier") `,
    );
    await queryRunner.query(
      `CREATE TABLE "giftcard_transaction" ("id" SERIAL NOT NULL, "giftcard_id" integer NOT NULL, "datetime" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "value" numeric(13,2) NOT NULL, "text" text, "info" jsonb, "acceptor_id" integer NOT NULL, CONSTRAINT "PK_e117c2d6e12f5e75b115bb409d8" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_31fff703f978994e1d408be8ce" ON "giftcard_transaction" ("acceptor_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_giftcard_transaction_card" ON "giftcard_transaction" ("giftcard_id", "id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "giftcard_acceptance" ("id" SERIAL NOT NULL, "issuer_id" integer NOT NULL, "acceptor_id" integer NOT NULL, "active" boolean NOT NULL DEFAULT true, "reusable_media" boolean NOT NULL DEFAULT false, CONSTRAINT "ck_giftcard_acceptance_other_organizer" CHECK ("issuer_id" <> "acceptor_id"), CONSTRAINT "PK_68238a5570cb0dc2aad3d321010" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_giftcard_acceptance_acceptor" ON "giftcard_acceptance" ("acceptor_id", "issuer_id") `,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_giftcard_acceptance_issuer_acceptor" ON "giftcard_acceptance" ("issuer_id", "acceptor_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "giftcard" ADD CONSTRAINT "FK_103598b1b0670a5d3f6b9399a18" FOREIGN KEY ("issuer_id") REFERENCES "organizer"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "giftcard" ADD CONSTRAINT "FK_deb1a42402a010c6487406569f0" FOREIGN KEY ("owner_ticket_id") REFERENCES "order_position"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "reusable_medium" ADD CONSTRAINT "FK_7f03bd2e9655ca784924a4e4eb3" FOREIGN KEY ("organizer_id") REFERENCES "organizer"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "reusable_medium" ADD CONSTRAINT "FK_84b1ce58e2ca1f9b63bd4e7989c" FOREIGN KEY ("linked_orderposition_id") REFERENCES "order_position"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "reusable_medium" ADD CONSTRAINT "FK_534ceee7e6ed0db6cdd6e3e2c27" FOREIGN KEY ("linked_giftcard_id") REFERENCES "giftcard"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "giftcard_transaction" ADD CONSTRAINT "FK_10ecf670ca225c252da63959838" FOREIGN KEY ("giftcard_id") REFERENCES "giftcard"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "giftcard_transaction" ADD CONSTRAINT "FK_31fff703f978994e1d408be8ce6" FOREIGN KEY ("acceptor_id") REFERENCES "organizer"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "giftcard_acceptance" ADD CONSTRAINT "FK_9537164325c2d38bfe2a977e1a2" FOREIGN KEY ("issuer_id") REFERENCES "organizer"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "giftcard_acceptance" ADD CONSTRAINT "FK_22bb23e561941b323b8a8b4b890" FOREIGN KEY ("acceptor_id") REFERENCES "organizer"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "giftcard_acceptance" DROP CONSTRAINT "FK_22bb23e561941b323b8a8b4b890"`,
    );
    await queryRunner.query(
      `ALTER TABLE "giftcard_acceptance" DROP CONSTRAINT "FK_9537164325c2d38bfe2a977e1a2"`,
    );
    await queryRunner.query(
      `ALTER TABLE "giftcard_transaction" DROP CONSTRAINT "FK_31fff703f978994e1d408be8ce6"`,
    );
    await queryRunner.query(
      `ALTER TABLE "giftcard_transaction" DROP CONSTRAINT "FK_10ecf670ca225c252da63959838"`,
    );
    await queryRunner.query(`ALTER TABLE "reusable_medium" DROP CONSTRAINT "FK_534ceee7e6ed0db6cdd6e3e2c27"`);
    await queryRunner.query(`ALTER TABLE "reusable_medium" DROP CONSTRAINT "FK_84b1ce58e2ca1f9b63bd4e7989c"`);
    await queryRunner.query(`ALTER TABLE "reusable_medium" DROP CONSTRAINT "FK_7f03bd2e9655ca784924a4e4eb3"`);
    await queryRunner.query(`ALTER TABLE "giftcard" DROP CONSTRAINT "FK_deb1a42402a010c6487406569f0"`);
    await queryRunner.query(`ALTER TABLE "giftcard" DROP CONSTRAINT "FK_103598b1b0670a5d3f6b9399a18"`);
    await queryRunner.query(`DROP INDEX "public"."uq_giftcard_acceptance_issuer_acceptor"`);
    await queryRunner.query(`DROP INDEX "public"."ix_giftcard_acceptance_acceptor"`);
    await queryRunner.query(`DROP TABLE "giftcard_acceptance"`);
    await queryRunner.query(`DROP INDEX "public"."ix_giftcard_transaction_card"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_31fff703f978994e1d408be8ce"`);
    await queryRunner.query(`DROP TABLE "giftcard_transaction"`);
    await queryRunner.query(`DROP INDEX "public"."uq_reusable_medium_organizer_type_identifier"`);
    await queryRunner.query(`DROP INDEX "public"."ix_reusable_medium_organizer_updated"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_534ceee7e6ed0db6cdd6e3e2c2"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_84b1ce58e2ca1f9b63bd4e7989"`);
    await queryRunner.query(`DROP TABLE "reusable_medium"`);
    await queryRunner.query(`DROP INDEX "public"."uq_giftcard_issuer_secret"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_deb1a42402a010c6487406569f"`);
    await queryRunner.query(`DROP TABLE "giftcard"`);
  }
}
