/** Seating plans of organizers (compat §3.5). */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class SeatingPlans1795488078103 implements MigrationInterface {
  name = 'SeatingPlans1795488078103';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "seating_plan" ("id" SERIAL NOT NULL, "organizer_id" integer NOT NULL, "name" character varying(190) NOT NULL, "layout" jsonb NOT NULL, CONSTRAINT "PK_b42b0cabee0a1b153bef630b235" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_67abb62ece8566ebaffa87ef8e" ON "seating_plan" ("organizer_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "seating_plan" ADD CONSTRAINT "FK_67abb62ece8566ebaffa87ef8e7" FOREIGN KEY ("organizer_id") REFERENCES "organizer"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "seating_plan" DROP CONSTRAINT "FK_67abb62ece8566ebaffa87ef8e7"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_67abb62ece8566ebaffa87ef8e"`);
    await queryRunner.query(`DROP TABLE "seating_plan"`);
  }
}
