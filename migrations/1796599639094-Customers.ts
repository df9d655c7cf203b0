/** Customers and memberships (`O/customers/`, `O/memberships/`); orders name their customer by identifier. */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class Customers1796599639094 implements MigrationInterface {
  name = 'Customers1796599639094';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "customer" ("id" SERIAL NOT NULL, "organizer_id" integer NOT NULL, "identifier" character varying(190) NOT NULL, "external_identifier" character varying(255), "email" character varying(190), "phone" character varying(64), "password_hash" character varying(128), "name_cached" character varying(255) NOT NULL DEFAULT '', "name_parts" jsonb NOT NULL DEFAULT '{}', "is_active" boolean NOT NULL DEFAULT true, "is_verified" boolean NOT NULL DEFAULT true, "last_login" TIMESTAMP WITH TIME ZONE, "date_joined" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "locale" character varying(50) NOT NULL DEFAULT 'en', "last_modified" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "notes" text, CONSTRAINT "PK_a7a13f4cacb744524e44dfdad32" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_customer_organizer_email" ON "customer" ("organizer_id", "email") `,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_customer_identifier" ON "customer" ("identifier") `);
    await queryRunner.query(
      `CREATE TABLE "membership" ("id" SERIAL NOT NULL, "organizer_id" integer NOT NULL, "customer_id" integer NOT NULL, "membership_type_id" integer NOT NULL, "testmode" boolean NOT NULL DEFAULT false, "date_start" TIMESTAMP WITH TIME ZONE NOT NULL, "date_end" TIMESTAMP WITH TIME ZONE NOT NULL, "attendee_name_parts" jsonb, "canceled" boolean NOT NULL DEFAULT false, "granted_in_position_id" integer, CONSTRAINT "PK_83c1afebef3059472e7c37e8de8" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_5975c82b12810d76e62cdbf71a" ON "membership" ("customer_id") `);
    await queryRunner.query(
      `CREATE INDEX "IDX_0ee1ba211426a982ffb4c3509b" ON "membership" ("membership_type_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_8c25984813034f07c7bc52e334" ON "membership" ("granted_in_position_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_membership_organizer_id" ON "membership" ("organizer_id", "id") `,
    );
    await queryRunner.query(`ALTER TABLE "orders" ADD "customer" character varying(190)`);
    await queryRunner.query(
      `CREATE INDEX "ix_orders_organizer_customer" ON "orders" ("organizer_id", "customer") WHERE customer IS NOT NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE "customer" ADD CONSTRAINT "FK_a69ee3fbb9867071405f3aa45e1" FOREIGN KEY ("organizer_id") REFERENCES "organizer"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "membership" ADD CONSTRAINT "FK_a509422866801e15fb3c0512af6" FOREIGN KEY ("organizer_id") REFERENCES "organizer"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "membership" ADD CONSTRAINT "FK_5975c82b12810d76e62cdbf71a4" FOREIGN KEY ("customer_id") REFERENCES "customer"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "membership" ADD CONSTRAINT "FK_0ee1ba211426a982ffb4c3509ba" FOREIGN KEY ("membership_type_id") REFERENCES "membership_type"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "membership" DROP CONSTRAINT "FK_0ee1ba211426a982ffb4c3509ba"`);
    await queryRunner.query(`ALTER TABLE "membership" DROP CONSTRAINT "FK_5975c82b12810d76e62cdbf71a4"`);
    await queryRunner.query(`ALTER TABLE "membership" DROP CONSTRAINT "FK_a509422866801e15fb3c0512af6"`);
    await queryRunner.query(`ALTER TABLE "customer" DROP CONSTRAINT "FK_a69ee3fbb9867071405f3aa45e1"`);
    await queryRunner.query(`DROP INDEX "public"."ix_orders_organizer_customer"`);
    await queryRunner.query(`ALTER TABLE "orders" DROP COLUMN "customer"`);
    await queryRunner.query(`DROP INDEX "public"."ix_membership_organizer_id"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_8c25984813034f07c7bc52e334"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_0ee1ba211426a982ffb4c3509b"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_5975c82b12810d76e62cdbf71a"`);
    await queryRunner.query(`DROP TABLE "membership"`);
    await queryRunner.query(`DROP INDEX "public"."uq_customer_identifier"`);
    await queryRunner.query(`DROP INDEX "public"."uq_customer_organizer_email"`);
    await queryRunner.query(`DROP TABLE "customer"`);
  }
}
