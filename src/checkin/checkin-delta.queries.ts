import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { CheckinList } from './checkin-list.entity';
import { SqlFragment, sqlFragment } from '../common/persistence/sql-fragment';

/**
 * The check-in context's part of the scanners' delta sync (README "Delta sync for scanners"): which positions'
 * scans on a list changed between two change stamps. `checkin.changed_xid` is kept by the trigger of migration
 * `ScannerDeltaStamps` on every insert and update (a scan, an annulment), so no write path of this context needs
 * to know about it. The orders seam splices the fragment into its one delta statement (`CheckinDeltaFrameQueries`).
 */
@Injectable()
export class CheckinDeltaQueries {
  /**
   * Fragment, a SELECT yielding column `id`: the positions with a scan on list `listId` (successful or not, or
   * annulled) stamped in `[lo, hi)`; `lo` and `hi` are SQL bigint expressions of the caller (bound parameters or
   * its own columns). Uses the alias `c` inside; served by index `ix_checkin_list_changed`.
   */
  changedPositions(listId: number, lo: string, hi: string): SqlFragment {
    return sqlFragment(`SELECT c.position_id AS id FROM checkin c
      WHERE c.list_id = ${String(Math.trunc(listId))} AND c.changed_xid >= ${lo} AND c.changed_xid < ${hi}
        AND c.position_id IS NOT NULL`);
  }

  /**
   * The list `id` (any event; callers check it) and the delta watermark taken now (decimal bigint:
   * `pg_snapshot_xmin(pg_current_snapshot())`, every transaction below it has ended), for the cursor a full read
   * of the list starts from: the read runs after this statement, so it sees every change stamped below the
   * watermark; those at or above it come with the next delta. One statement, no lock; null for an unknown list.
   */
  async listWithWatermark(
    em: EntityManager,
    id: number,
  ): Promise<{ list: CheckinList; watermark: string } | null> {
    const { entities, raw } = await em
      .getRepository(CheckinList)
      .createQueryBuilder('l')
      .addSelect('pg_snapshot_xmin(pg_current_snapshot())::text', 'watermark')
      .where('l.id = :id', { id })
      .getRawAndEntities<{ watermark: string }>();
    return entities.length === 0 ? null : { list: entities[0], watermark: raw[0].watermark };
  }
}
