import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** The SQL of cloning check-in lists besides the row copy: rules that name products. */
@Injectable()
export class CheckinCopyQueries {
  /** The lists among `ids` whose rules contain a `lookup`; one statement. */
  async rulesWithLookups(
    em: EntityManager,
    ids: readonly number[],
  ): Promise<{ id: number; rules: unknown }[]> {
    return em.query(
      `SELECT id, rules FROM checkin_list WHERE id = ANY($1) AND rules::text LIKE '%"lookup"%'`,
      [[...ids]],
    );
  }

  /** Stores a list's rules; one statement. */
  async setRules(em: EntityManager, id: number, rules: unknown): Promise<void> {
    await em.query('UPDATE checkin_list SET rules = $2 WHERE id = $1', [id, JSON.stringify(rules)]);
  }
}
