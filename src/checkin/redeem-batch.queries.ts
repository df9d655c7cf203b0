import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { SuccessfulScanRow } from './checkin.queries';

/** A successful scan a batch writes (set-wise, one statement for all). */
export interface BatchOkInsert {
  position_id: number;
  event_id: number;
  list_id: number;
  type: string;
  datetime: string;
  forced: boolean;
  nonce: string | null;
}

/** A refused scan a batch writes. */
export interface BatchFailedInsert {
  position_id: number;
  event_id: number;
  list_id: number;
  type: string;
  datetime: string;
  error_reason: string;
  error_explanation: string;
  nonce: string | null;
  conflict: object | null;
  forced: boolean;
}

/**
 * The batch redeem's statements on `checkin` (README "Batch redeem"): the tickets' scans read at once and the
 * batch's scans written at once (rows travel as one JSON parameter, whatever their number), and savepoints around
 * scans decided one by one. Stateless; each method runs on the caller's EntityManager.
 */
@Injectable()
export class RedeemBatchQueries {
  /** The successful scans of the tickets on the lists (`pairs`: [position id, list id]); one statement, no lock. */
  async successfulScans(
    em: EntityManager,
    pairs: readonly [number, number][],
  ): Promise<(Omit<SuccessfulScanRow, 'again'> & { position_id: number; list_id: number })[]> {
    if (pairs.length === 0) return [];
    return em.query(
      `SELECT c.id, c.position_id, c.list_id, c.type, c.datetime, c.forced, c.device_id, c.gate_id, c.nonce
         FROM checkin c JOIN unnest($1::int[], $2::int[]) AS w(position_id, list_id)
           ON c.position_id = w.position_id AND c.list_id = w.list_id
        WHERE c.successful`,
      [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
    );
  }

  /**
   * Inserts successful scans of the device `deviceId`/`gateId` (a nonce already stored with a successful scan of the
   * ticket on the list inserts nothing). @returns the rows written
   */
  async insertOk(
    em: EntityManager,
    rows: readonly BatchOkInsert[],
    deviceId: number | null,
    gateId: number | null,
  ): Promise<{ id: number; position_id: number }[]> {
    if (rows.length === 0) return [];
    return em.query(
      `INSERT INTO checkin (position_id, event_id, list_id, type, datetime, successful, forced, nonce, device_id, gate_id)
       SELECT r.position_id, r.event_id, r.list_id, r.type, r.datetime, true, r.forced, r.nonce, $2, $3
         FROM jsonb_to_recordset($1::jsonb) AS r(position_id int, event_id int, list_id int, type varchar,
                                                  datetime timestamptz, forced boolean, nonce varchar)
       ON CONFLICT (position_id, list_id, nonce) WHERE successful AND nonce IS NOT NULL DO NOTHING
       RETURNING id, position_id`,
      [JSON.stringify(rows), deviceId, gateId],
    );
  }

  /** Inserts refused scans, as {@link insertOk} (a nonce already among the failed ones inserts nothing). */
  async insertFailed(
    em: EntityManager,
    rows: readonly BatchFailedInsert[],
    deviceId: number | null,
    gateId: number | null,
  ): Promise<{ id: number; position_id: number }[]> {
    if (rows.length === 0) return [];
    return em.query(
      `INSERT INTO checkin (position_id, event_id, list_id, type, datetime, successful, error_reason, error_explanation,
                            nonce, conflict, forced, device_id, gate_id)
       SELECT r.position_id, r.event_id, r.list_id, r.type, r.datetime, false, r.error_reason, r.error_explanation,
              r.nonce, r.conflict, r.forced, $2, $3
         FROM jsonb_to_recordset($1::jsonb) AS r(position_id int, event_id int, list_id int, type varchar,
                                                  datetime timestamptz, error_reason varchar, error_explanation text,
                                                  nonce varchar, conflict jsonb, forced boolean)
       ON CONFLICT (position_id, list_id, nonce) WHERE NOT successful AND nonce IS NOT NULL DO NOTHING
       RETURNING id, position_id`,
      [JSON.stringify(rows), deviceId, gateId],
    );
  }

  /** Opens the savepoint of one scan decided on its own. */
  async savepoint(em: EntityManager): Promise<void> {
    await em.query('SAVEPOINT batch_scan');
  }

  /** Keeps what the scan wrote. */
  async release(em: EntityManager): Promise<void> {
    await em.query('RELEASE SAVEPOINT batch_scan');
  }

  /** Undoes what the scan wrote (its answer is an error). */
  async rollback(em: EntityManager): Promise<void> {
    await em.query('ROLLBACK TO SAVEPOINT batch_scan');
  }
}
