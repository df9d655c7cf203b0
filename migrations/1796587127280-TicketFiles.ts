/**
 * The ticket cache of the tickets context (README "Ticket downloads"): per order or position and output, the key of
 * what the ticket shows, its render task and its stored PDF.
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class TicketFiles1796587127280 implements MigrationInterface {
  name = 'TicketFiles1796587127280';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "ticket_file" ("id" SERIAL NOT NULL, "event_id" integer NOT NULL,
        "scope" character varying(8) NOT NULL, "target_id" integer NOT NULL, "output" character varying(16) NOT NULL,
        "content_key" character varying(64) NOT NULL, "task_id" uuid, "file_id" uuid,
        "updated" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
        CONSTRAINT "PK_8dd271ff4f72045e5f3aead0d40" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_40b9fe98d7845fcbe0149b7a85" ON "ticket_file" ("event_id") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_ticket_file_target" ON "ticket_file" ("scope", "target_id", "output") `,
    );
    await queryRunner.query(
      `ALTER TABLE "ticket_file" ADD CONSTRAINT "FK_40b9fe98d7845fcbe0149b7a856" FOREIGN KEY ("event_id")
        REFERENCES "event"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "ticket_file"`);
  }
}
