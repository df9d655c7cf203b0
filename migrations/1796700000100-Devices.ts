/** Devices and gates of organizers (pretix `Device`, `Gate`; issue 26): API tokens stored as SHA-256 hex only. */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class Devices1796700000100 implements MigrationInterface {
  name = 'Devices1796700000100';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "gate" ("id" SERIAL NOT NULL, "organizer_id" integer NOT NULL, "name" character varying(190) NOT NULL, "identifier" character varying(190) NOT NULL, CONSTRAINT "PK_f8d4ea65058f6177925357d1311" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_gate_organizer_identifier" ON "gate" ("organizer_id", "identifier") `,
    );
    await queryRunner.query(
      `CREATE TABLE "device" ("id" SERIAL NOT NULL, "organizer_id" integer NOT NULL, "device_id" integer NOT NULL, "unique_serial" character varying(190) NOT NULL, "initialization_token" character varying(190) NOT NULL, "api_token_hash" character varying(64), "all_events" boolean NOT NULL DEFAULT false, "revoked" boolean NOT NULL DEFAULT false, "name" character varying(190) NOT NULL, "created" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "initialized" TIMESTAMP WITH TIME ZONE, "hardware_brand" character varying(190), "hardware_model" character varying(190), "os_name" character varying(190), "os_version" character varying(190), "software_brand" character varying(190), "software_version" character varying(190), "security_profile" character varying(190) NOT NULL DEFAULT 'full', "rsa_pubkey" text, "info" jsonb, "gate_id" integer, CONSTRAINT "UQ_3f7fa6845a1f11d691b08804949" UNIQUE ("unique_serial"), CONSTRAINT "UQ_d32c6918edfd112297381498e5c" UNIQUE ("initialization_token"), CONSTRAINT "UQ_54ddfaae82ed6f1665cb7754d9d" UNIQUE ("api_token_hash"), CONSTRAINT "PK_2dc10972aa4e27c01378dad2c72" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_e941848f0b27aa8f330b1cc9b6" ON "device" ("gate_id") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_device_organizer_device_id" ON "device" ("organizer_id", "device_id") `,
    );
    await queryRunner.query(
      `CREATE TABLE "device_limit_event" ("device_id" integer NOT NULL, "event_id" integer NOT NULL, CONSTRAINT "PK_2f963812753d5547c24dddce2bd" PRIMARY KEY ("device_id", "event_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_1cd2b1550604c0dc34f26baee9" ON "device_limit_event" ("device_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_79bf473f252d4bc740f4e52f0f" ON "device_limit_event" ("event_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "gate" ADD CONSTRAINT "FK_8007e918f25c8022eceb1e8594e" FOREIGN KEY ("organizer_id") REFERENCES "organizer"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "device" ADD CONSTRAINT "FK_9a06d6ccc80ffc041a3a99915a7" FOREIGN KEY ("organizer_id") REFERENCES "organizer"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "device" ADD CONSTRAINT "FK_e941848f0b27aa8f330b1cc9b64" FOREIGN KEY ("gate_id") REFERENCES "gate"("id") ON DELETE SET NULL ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "device_limit_event" ADD CONSTRAINT "FK_1cd2b1550604c0dc34f26baee94" FOREIGN KEY ("device_id") REFERENCES "device"("id") ON DELETE CASCADE ON UPDATE CASCADE`,
    );
    await queryRunner.query(
      `ALTER TABLE "device_limit_event" ADD CONSTRAINT "FK_79bf473f252d4bc740f4e52f0f9" FOREIGN KEY ("event_id") REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE CASCADE`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "device_limit_event" DROP CONSTRAINT "FK_79bf473f252d4bc740f4e52f0f9"`,
    );
    await queryRunner.query(
      `ALTER TABLE "device_limit_event" DROP CONSTRAINT "FK_1cd2b1550604c0dc34f26baee94"`,
    );
    await queryRunner.query(`ALTER TABLE "device" DROP CONSTRAINT "FK_e941848f0b27aa8f330b1cc9b64"`);
    await queryRunner.query(`ALTER TABLE "device" DROP CONSTRAINT "FK_9a06d6ccc80ffc041a3a99915a7"`);
    await queryRunner.query(`ALTER TABLE "gate" DROP CONSTRAINT "FK_8007e918f25c8022eceb1e8594e"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_79bf473f252d4bc740f4e52f0f"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_1cd2b1550604c0dc34f26baee9"`);
    await queryRunner.query(`DROP TABLE "device_limit_event"`);
    await queryRunner.query(`DROP INDEX "public"."uq_device_organizer_device_id"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_e941848f0b27aa8f330b1cc9b6"`);
    await queryRunner.query(`DROP TABLE "device"`);
    await queryRunner.query(`DROP INDEX "public"."uq_gate_organizer_identifier"`);
    await queryRunner.query(`DROP TABLE "gate"`);
  }
}
