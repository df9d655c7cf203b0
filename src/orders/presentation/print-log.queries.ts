import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { isoUtc } from '../../common/values/datetime';
import type { PrintLogJson } from './order-parts.presenter';

/** A new print log (pretix "Order position endpoints" `printlog`). */
export interface PrintLogInsert {
  positionId: number;
  successful: boolean;
  datetime: Date;
  source: string;
  type: string;
  info: Record<string, unknown>;
  /** The number (`device_id`) of the device that printed, or null (pretix `PrintLog.device`). */
  deviceId: number | null;
}

type PrintLogTuple = [number, boolean, string, string, string, Record<string, unknown>, number | null];

/** One entry of a position's `print_logs` from {@link PrintLogQueries.printLogsSql}'s tuple. */
function fromTuple([id, successful, datetime, source, type, info, deviceId]: PrintLogTuple): PrintLogJson {
  return {
    id,
    successful,
    device_id: deviceId ?? null,
    source,
    type,
    datetime: isoUtc(new Date(datetime)),
    info: (info ?? {}) as Record<string, string>,
  };
}

/**
 * The SQL of the `print_log` table: the scalar subquery of a position's `print_logs` (spliced into the position
 * and order pages so that they stay one statement), the batch read for presented positions, and the insert.
 */
@Injectable()
export class PrintLogQueries {
  /** Scalar subquery: the print logs of the position whose id is the SQL expression `positionId`, by id (jsonb). */
  static printLogsSql(positionId: string): string {
    return `(SELECT coalesce(jsonb_agg(jsonb_build_array(pl.id, pl.successful, pl.datetime, pl.source, pl.type, pl.info,
      pl.device_id)
      ORDER BY pl.id), '[]'::jsonb) FROM print_log pl WHERE pl.position_id = ${positionId})`;
  }

  /** Reads {@link printLogsSql}'s array. */
  static read(value: unknown): PrintLogJson[] {
    return ((value as PrintLogTuple[] | null) ?? []).map(fromTuple);
  }

  /** The print logs of the positions, by position id (one statement). */
  async byPositions(em: EntityManager, positionIds: readonly number[]): Promise<Map<number, PrintLogJson[]>> {
    const rows: { position_id: number; logs: unknown }[] = await em.query(
      `SELECT p.id AS position_id, ${PrintLogQueries.printLogsSql('p.id')} AS logs
         FROM unnest($1::int[]) AS p(id)`,
      [[...positionIds]],
    );
    return new Map(rows.map((r) => [r.position_id, PrintLogQueries.read(r.logs)]));
  }

  /** Stores a print log; the stored row as presented (one statement). */
  async insert(em: EntityManager, log: PrintLogInsert): Promise<PrintLogJson> {
    const rows: { id: number }[] = await em.query(
      `INSERT INTO print_log (position_id, successful, datetime, source, type, info, device_id)
         VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7) RETURNING id`,
      [
        log.positionId,
        log.successful,
        log.datetime,
        log.source,
        log.type,
        JSON.stringify(log.info),
        log.deviceId,
      ],
    );
    return fromTuple([
      rows[0].id,
      log.successful,
      log.datetime.toISOString(),
      log.source,
      log.type,
      log.info,
      log.deviceId,
    ]);
  }
}
