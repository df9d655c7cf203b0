/**
 * An index for every foreign key that had none (README "Layout"): deletes and updates of referenced rows no longer
 * scan the referencing table.
 */
import { MigrationInterface, QueryRunner } from 'typeorm';

export class ForeignKeyIndexes1795462650318 implements MigrationInterface {
  name = 'ForeignKeyIndexes1795462650318';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "IDX_ac45eb95e687a8f17ffba15290" ON "item" ("hidden_if_available") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_ec7fbd83069c89ce63ae94caa8" ON "item" ("hidden_if_item_available") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_43a17f0d378afb2e029584c530" ON "item" ("grant_membership_type") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_97db81283dc8fd0e37acd6834d" ON "question" ("dependency_question_id") `,
    );
    await queryRunner.query(`CREATE INDEX "IDX_1e66f19e50f4a714354fb727a8" ON "voucher" ("variation_id") `);
    await queryRunner.query(`CREATE INDEX "IDX_0899daa6993381dc385f13146e" ON "cart_position" ("item_id") `);
    await queryRunner.query(
      `CREATE INDEX "IDX_ca3cd4e2e76a84497d5edd2ca7" ON "cart_position" ("variation_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_86e3f37eb89cb4485f1ff321d2" ON "cart_position" ("addon_to_id") `,
    );
    await queryRunner.query(`CREATE INDEX "IDX_7f530988540c71dfe7c379de94" ON "order_position" ("item_id") `);
    await queryRunner.query(
      `CREATE INDEX "IDX_bf9f2e148474b617dce7a044bf" ON "order_position" ("variation_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_b34235553b68896851b29fc783" ON "order_position" ("tax_rule_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_cdfb8c9666fce03f86ac755f15" ON "order_position" ("addon_to_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_44ed79e6741c0db59f3f14a820" ON "order_position" ("discount_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_18887f130f8f437eb258e20f01" ON "item_bundle" ("bundled_variation_id") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_18887f130f8f437eb258e20f01"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_44ed79e6741c0db59f3f14a820"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_cdfb8c9666fce03f86ac755f15"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_b34235553b68896851b29fc783"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_bf9f2e148474b617dce7a044bf"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_7f530988540c71dfe7c379de94"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_86e3f37eb89cb4485f1ff321d2"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_ca3cd4e2e76a84497d5edd2ca7"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_0899daa6993381dc385f13146e"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_1e66f19e50f4a714354fb727a8"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_97db81283dc8fd0e37acd6834d"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_43a17f0d378afb2e029584c530"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_ec7fbd83069c89ce63ae94caa8"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_ac45eb95e687a8f17ffba15290"`);
  }
}
