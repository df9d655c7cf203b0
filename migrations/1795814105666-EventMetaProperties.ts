import { MigrationInterface, QueryRunner } from 'typeorm';

export class EventMetaProperties1795814105666 implements MigrationInterface {
  name = 'EventMetaProperties1795814105666';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "event_meta_property" ("id" SERIAL NOT NULL, "organizer_id" integer NOT NULL, "name" character varying(50) NOT NULL, "default" text NOT NULL DEFAULT '', "allowed_values" jsonb, "protected" boolean NOT NULL DEFAULT false, CONSTRAINT "PK_e9a0407cf6f16f5ade0ee0c65bd" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_event_meta_property_name" ON "event_meta_property" ("organizer_id", "name") `,
    );
    await queryRunner.query(
      `ALTER TABLE "event_meta_property" ADD CONSTRAINT "FK_d85ec73378b905ce2f28ecdbb38" FOREIGN KEY ("organizer_id") REFERENCES "organizer"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "event_meta_property" DROP CONSTRAINT "FK_d85ec73378b905ce2f28ecdbb38"`,
    );
    await queryRunner.query(`DROP INDEX "public"."uq_event_meta_property_name"`);
    await queryRunner.query(`DROP TABLE "event_meta_property"`);
  }
}
